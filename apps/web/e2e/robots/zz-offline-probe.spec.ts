import { createVerifiedUser, expect, signInByApi, test } from '../fixtures';

test('probe offline', async ({ page, context }) => {
  test.setTimeout(60_000);
  const user = await createVerifiedUser(page.request);
  await signInByApi(page, user.email, user.password);
  await page.goto('/dashboard/faq');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.evaluate(() => {
    (window as any).__events = [];
    window.addEventListener('offline', () => (window as any).__events.push('offline'));
    window.addEventListener('online', () => (window as any).__events.push('online'));
  });
  await context.setOffline(true);
  console.log(
    'onLine',
    await page.evaluate(() => navigator.onLine),
    await page.evaluate(() => (window as any).__events),
  );
  await page.getByRole('link', { name: 'Dashboard', exact: true }).first().click();
  await page.waitForTimeout(12_000);
  await page.screenshot({ path: '/tmp/probe/offline.png', fullPage: true });
  console.log(await page.locator('main').innerText());
});

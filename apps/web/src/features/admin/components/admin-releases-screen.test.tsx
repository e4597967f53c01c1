import { RELEASE_UPLOAD_PATH } from '@portal/contract';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { readSession, storeSession } from '@/lib/session';
import { failure, fakeServer, never, OK, tokenPair, user } from '@/test/fake-server';
import { renderScreen, settle } from '@/test/render-screen';
import { staffMe } from '../admin-fixtures';
import { release, releasePlatforms } from '../admin-release-fixtures';
import { AdminReleasesScreen } from './admin-releases-screen';

// Staff calls go with the session (packages/client): the tests' browser has one.
beforeEach(() => storeSession(tokenPair(), user({ email: 'grace@example.com' }), true));

const NEWER = release({
  artifact_id: '66666666-6666-4666-8666-666666666666',
  version: '2.1.0.0',
  file_name: 'robot-hub-2.1.0.deb',
  withdrawn_at: Date.UTC(2026, 10, 21, 10, 0),
  withdrawn_reason: 'Crashes on start',
});
const OFFERED = release({ offered: true });
const OLDER = release({ artifact_id: '77777777-7777-4777-8777-777777777777', version: '2.0.0.0', size_bytes: 88 });
const LIST = releasePlatforms({ 'linux/deb': [NEWER, OFFERED, OLDER] });

const rows = (name: string) => within(screen.getByRole('region', { name })).getAllByRole('row').slice(1);

describe('releases', () => {
  it('lists each platform newest first: the offered build, the withdrawn one with its reason', async () => {
    fakeServer({ ListReleases: () => ({ json: { platforms: LIST, error: OK } }) });
    await renderScreen(<AdminReleasesScreen canManage />);
    await screen.findByRole('region', { name: 'Linux (DEB) builds' });
    const [withdrawn, offered, older] = rows('Linux (DEB) builds');
    expect(withdrawn?.textContent).toContain('2.1.0.0');
    expect(withdrawn?.textContent).toMatch(/Withdrawn 2026-11-21 \d\d:\d\dReason: Crashes on start/);
    expect(offered?.textContent).toContain('2.0.1.0');
    expect(offered?.textContent).toContain('Offered');
    expect(offered?.textContent).toContain('12.4 MB');
    expect(older?.textContent).toContain('Not offered');
    expect(older?.textContent).toContain('88 bytes');
    const linux = screen.getByTestId('releases-linux/deb');
    expect(within(linux).getByTestId('release-offered').textContent).toBe('Customers are offered 2.0.1.0');
    const windows = screen.getByTestId('releases-windows/amd64');
    expect(within(windows).getByTestId('release-offered').textContent).toBe(
      'Customers are offered no build for this platform',
    );
    expect(within(windows).getByText('No build has been uploaded for this platform.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Withdraw Linux (DEB) 2.0.1.0' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Restore Linux (DEB) 2.1.0.0' })).toBeTruthy();
    expect(screen.getByRole('form', { name: 'Upload a build' })).toBeTruthy();
  });

  it('a role that may not manage releases reads them, with no upload and no withdraw or restore', async () => {
    fakeServer({ ListReleases: () => ({ json: { platforms: LIST, error: OK } }) });
    await renderScreen(<AdminReleasesScreen canManage={false} />);
    await screen.findByRole('region', { name: 'Linux (DEB) builds' });
    expect(rows('Linux (DEB) builds')).toHaveLength(3);
    expect(screen.queryByRole('form', { name: 'Upload a build' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^(Withdraw|Restore|Upload)/ })).toBeNull();
  });

  it('shows a placeholder while loading, and a failure with a retry', async () => {
    fakeServer({ ListReleases: never });
    const { unmount } = await renderScreen(<AdminReleasesScreen canManage />);
    expect(screen.getByRole('status', { name: 'Loading the releases' })).toBeTruthy();
    unmount();
    let calls = 0;
    fakeServer({
      ListReleases: () => {
        calls += 1;
        return calls === 1
          ? { status: 500, json: failure(1, 'Internal error') }
          : { json: { platforms: LIST, error: OK } };
      },
    });
    await renderScreen(<AdminReleasesScreen canManage />);
    expect(await screen.findByText('The releases could not be loaded')).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Try again' })));
    expect(await screen.findByRole('region', { name: 'Linux (DEB) builds' })).toBeTruthy();
  });

  it('withdraws through the confirm dialog: a reason is required, then sent, and the list is asked again', async () => {
    const server = fakeServer({
      ListReleases: () => ({ json: { platforms: LIST, error: OK } }),
      WithdrawRelease: () => ({ json: { platform: LIST[3], error: OK } }),
    });
    await renderScreen(<AdminReleasesScreen canManage />);
    const open = await screen.findByRole('button', { name: 'Withdraw Linux (DEB) 2.0.1.0' });
    await act(async () => fireEvent.click(open));
    const dialog = screen.getByRole('dialog', { name: 'Withdraw this build?' });
    expect(dialog.textContent).toContain('Downloads offers the next highest version');
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Withdraw build' })));
    expect(within(dialog).getByText('Reason is required')).toBeTruthy();
    expect(server.count('WithdrawRelease')).toBe(0);
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: '  Crashes on start  ' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Withdraw build' })));
    await settle();
    expect(server.calls.find((c) => c.action === 'WithdrawRelease')?.body).toMatchObject({
      artifact_id: OFFERED.artifact_id,
      reason: 'Crashes on start',
    });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(server.count('ListReleases')).toBe(2);
  });

  it('restores with a reason; a refusal naming the reason stays in the dialog under it', async () => {
    const server = fakeServer({
      ListReleases: () => ({ json: { platforms: LIST, error: OK } }),
      RestoreRelease: () => ({ status: 400, json: failure(100, 'reason: Reason must be at most 500 characters') }),
    });
    await renderScreen(<AdminReleasesScreen canManage />);
    const open = await screen.findByRole('button', { name: 'Restore Linux (DEB) 2.1.0.0' });
    await act(async () => fireEvent.click(open));
    const dialog = screen.getByRole('dialog', { name: 'Restore this build?' });
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: 'Fixed upstream' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Restore build' })));
    await settle();
    expect(server.calls.find((c) => c.action === 'RestoreRelease')?.body.artifact_id).toBe(NEWER.artifact_id);
    expect(within(dialog).getByText('Reason must be at most 500 characters')).toBeTruthy();
    expect(within(dialog).getByLabelText('Reason').getAttribute('aria-invalid')).toBe('true');
  });
});

interface SeenUpload {
  url: URL;
  init: RequestInit;
}

/** The fake server, and the upload route beside it: each upload is recorded and answered by `answer`. */
function withUploadRoute(
  handlers: Parameters<typeof fakeServer>[0],
  answer: (seen: SeenUpload) => { status?: number; json: unknown },
) {
  const server = fakeServer({ Me: () => ({ json: staffMe('admin') }), ...handlers });
  const uploads: SeenUpload[] = [];
  const actions = server.fetch;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://portal.test');
      if (url.pathname !== RELEASE_UPLOAD_PATH) return actions(input, init);
      const seen = { url, init };
      uploads.push(seen);
      const { status = 200, json } = answer(seen);
      return new Response(JSON.stringify(json), { status, headers: { 'content-type': 'application/json' } });
    }),
  );
  return { server, uploads };
}

const build = (name = 'robot-hub-2.2.0.deb', bytes = 'hub build bytes') =>
  new File([bytes], name, { type: 'application/vnd.debian.binary-package' });

async function fillUpload(file: File | undefined, platform: string, version: string) {
  const form = screen.getByRole('form', { name: 'Upload a build' });
  if (file) fireEvent.change(within(form).getByLabelText('Build file'), { target: { files: [file] } });
  fireEvent.change(within(form).getByLabelText('Platform'), { target: { value: platform } });
  fireEvent.change(within(form).getByLabelText('Version'), { target: { value: version } });
  await act(async () => fireEvent.click(within(form).getByRole('button', { name: 'Upload' })));
  await settle();
  return form;
}

describe('the upload form', () => {
  it('checks every field before sending, each error under its field', async () => {
    const { uploads } = withUploadRoute({ ListReleases: () => ({ json: { platforms: LIST, error: OK } }) }, () => ({
      json: {},
    }));
    await renderScreen(<AdminReleasesScreen canManage />);
    let form = await fillUpload(undefined, '', '');
    expect(within(form).getByText('Choose the build to upload')).toBeTruthy();
    expect(within(form).getByText('Choose the platform the build is for')).toBeTruthy();
    expect(within(form).getByText('Version is required')).toBeTruthy();
    expect(within(form).getByLabelText('Version').getAttribute('aria-invalid')).toBe('true');

    form = await fillUpload(build('robot hub.deb'), 'linux/deb', '2.2.0');
    expect(within(form).getByText(/^The file's name must be 1 to 128 letters/)).toBeTruthy();
    expect(within(form).getByText(/^Version must be major\.minor\.patch\.revision/)).toBeTruthy();
    expect(within(form).queryByText('Choose the platform the build is for')).toBeNull();

    form = await fillUpload(build('robot-hub.deb', ''), 'linux/deb', '2.2.0.1234567');
    expect(within(form).getByText('The file is empty')).toBeTruthy();
    expect(within(form).getByText(/^Version must be major\.minor\.patch\.revision/)).toBeTruthy();
    expect(uploads).toHaveLength(0);
  });

  it('the platforms offered are the ones the server accepts', async () => {
    withUploadRoute({ ListReleases: () => ({ json: { platforms: LIST, error: OK } }) }, () => ({ json: {} }));
    await renderScreen(<AdminReleasesScreen canManage />);
    const options = within(screen.getByLabelText('Platform'))
      .getAllByRole('option')
      .map((o) => (o as HTMLOptionElement).value);
    expect(options).toEqual(['', 'windows/amd64', 'mac/arm64', 'mac/amd64', 'linux/deb', 'linux/rpm']);
  });

  it('sends the file itself as the body with the platform, version and name in the query, then refreshes the list', async () => {
    const { server, uploads } = withUploadRoute(
      { ListReleases: () => ({ json: { platforms: LIST, error: OK } }) },
      () => ({ json: { release: release({ version: '2.2.0.0', offered: true }), error: OK } }),
    );
    await renderScreen(<AdminReleasesScreen canManage />);
    await screen.findByRole('region', { name: 'Linux (DEB) builds' });
    const file = build();
    const form = await fillUpload(file, 'linux/deb', ' 2.2.0.0 ');
    expect(uploads).toHaveLength(1);
    const [{ url, init }] = uploads as [SeenUpload];
    expect(Object.fromEntries(url.searchParams)).toEqual({
      os: 'linux',
      arch: 'deb',
      version: '2.2.0.0',
      file_name: 'robot-hub-2.2.0.deb',
    });
    expect(init.method).toBe('POST');
    expect(init.body).toBe(file);
    const headers = new Headers(init.headers);
    expect(headers.get('content-type')).toBe('application/octet-stream');
    expect(headers.get('x-csrf-token')).toBe('csrf-1');
    expect(headers.get('authorization')).toBe(`Bearer ${readSession().accessToken}`);
    expect(server.count('ListReleases')).toBe(2);
    expect(await screen.findByText('Build uploaded')).toBeTruthy();
    expect((within(form).getByLabelText('Version') as HTMLInputElement).value).toBe('');
    expect((within(form).getByLabelText('Platform') as HTMLSelectElement).value).toBe('');
  });

  it.each([
    [
      409,
      104,
      'version: 2.0.1.0 of linux/deb is uploaded already',
      'Version',
      '2.0.1.0 of linux/deb is uploaded already',
    ],
    [
      413,
      100,
      'body: a build may be at most 1024 bytes (RELEASE_MAX_BYTES); nothing was stored',
      'Build file',
      'a build may be at most 1024 bytes (RELEASE_MAX_BYTES); nothing was stored',
    ],
    [400, 100, 'os: must be one of windows, mac, linux', 'Platform', 'must be one of windows, mac, linux'],
  ])('a %i refusal sits under the field it names', async (status, code, description, label, shown) => {
    withUploadRoute({ ListReleases: () => ({ json: { platforms: LIST, error: OK } }) }, () => ({
      status,
      json: failure(code, description),
    }));
    await renderScreen(<AdminReleasesScreen canManage />);
    const form = await fillUpload(build(), 'linux/deb', '2.0.1.0');
    const field = within(form).getByLabelText(label);
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(String(field.getAttribute('aria-describedby')))?.textContent).toBe(shown);
    // Kept as typed, to correct.
    expect((within(form).getByLabelText('Version') as HTMLInputElement).value).toBe('2.0.1.0');
  });

  it('a connection cut during the upload says the file may be over the limit', async () => {
    const server = fakeServer({
      Me: () => ({ json: staffMe('admin') }),
      ListReleases: () => ({ json: { platforms: LIST, error: OK } }),
    });
    const actions = server.fetch;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
        if (String(input).startsWith(RELEASE_UPLOAD_PATH)) throw new TypeError('Failed to fetch');
        return actions(input, init);
      }),
    );
    await renderScreen(<AdminReleasesScreen canManage />);
    const form = await fillUpload(build(), 'linux/deb', '2.2.0.0');
    expect(within(form).getByText(/larger than the server allows \(RELEASE_MAX_BYTES\)/)).toBeTruthy();
  });
});

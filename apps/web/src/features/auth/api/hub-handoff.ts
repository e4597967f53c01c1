/**
 * Hands the encrypted credentials to the hub's loopback listener with a real top-level form POST
 * (RFC 8252): the hub answers with a redirect to /auth/complete. A fetch() would need CORS from the
 * hub and would leave the browser here; the tokens never touch this page's storage either way.
 */
export function postCredentialsToHub(redirect: string, encCreds: string): void {
  const form = document.createElement('form');
  form.method = 'post';
  form.action = redirect;
  form.hidden = true;
  const input = document.createElement('input');
  input.type = 'hidden';
  input.name = 'enc_creds';
  input.value = encCreds;
  form.append(input);
  document.body.append(form);
  form.submit();
}

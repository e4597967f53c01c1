/**
 * Sends the browser to another site (the payment provider's checkout). A module of its own so a
 * test can replace it: jsdom cannot follow a navigation and will not let `location.assign` be stubbed.
 */
export function redirectBrowser(url: string): void {
  window.location.assign(url);
}

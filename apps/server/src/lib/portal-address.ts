import { ApiError } from '@portal/contract';
import { portalOrigin } from '../plugins/security.ts';

/**
 * PUBLIC_URL, the address the portal's mails and the payment provider's pages send people to, and
 * which addresses lead back to this portal (docs/operations.md#one-address-public_url).
 */
export class PortalAddress {
  readonly origin: string;
  private readonly protocol: 'http' | 'https';

  constructor(
    /** PUBLIC_URL, without a trailing slash */
    readonly url: string,
    /** the hosts served as themselves (config.ALLOWED_HOSTS) */
    private readonly allowedHosts: readonly string[],
  ) {
    this.origin = new URL(url).origin;
    this.protocol = this.origin.startsWith('https:') ? 'https' : 'http';
  }

  /**
   * Whether `address` leads to this portal: PUBLIC_URL's origin, or PUBLIC_URL's scheme on another
   * host ALLOWED_HOSTS serves (the origins whose pages may call the API, plugins/security.ts).
   */
  leadsHere(address: string): boolean {
    let origin: string;
    try {
      origin = new URL(address).origin;
    } catch {
      return false;
    }
    return portalOrigin(origin, { publicOrigin: this.origin, allowedHosts: this.allowedHosts }, this.protocol);
  }

  /** A return address (a checkout's, the billing page's) must lead back here: 400 naming `field` otherwise. */
  checkReturnAddress(address: string, field: string): void {
    if (!this.leadsHere(address))
      throw new ApiError(
        'VALIDATION',
        `${field}: must be an address on ${this.origin}${this.allowedHosts.length > 1 ? ' or another host the portal serves' : ''}`,
      );
  }
}

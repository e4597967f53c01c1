/** Images already asked for in this page's life: each is fetched once. */
const asked = new Set<string>();

/**
 * Starts fetching images the page is about to show (the browser's cache then answers their <img>).
 * For pictures whose address is known a round trip before the markup that shows them is.
 */
export function preloadImages(urls: readonly string[]): void {
  for (const url of urls) {
    if (asked.has(url)) continue;
    asked.add(url);
    const image = new Image();
    image.decoding = 'async';
    image.src = url;
  }
}

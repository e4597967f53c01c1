/**
 * A browser and system name from a User-Agent header, by a few rules of our own (docs/decisions/033):
 * enough to tell a person's sessions apart and to notice a browser an account has not used before,
 * not a device database. Names come from a fixed list, so a crafted header cannot invent one.
 */

export const UNKNOWN_BROWSER = 'Unknown browser';
export const UNKNOWN_SYSTEM = 'Unknown system';

/** The longest User-Agent kept with a session; longer ones are cut (real ones are under 300). */
export const USER_AGENT_MAX = 512;

/** First match wins: browsers built on Chrome or Safari name themselves before the engine's token. */
const BROWSERS: [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bVivaldi\//, 'Vivaldi'],
  [/\bYaBrowser\//, 'Yandex Browser'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bHeadlessChrome\//, 'Headless Chrome'],
  [/\bCriOS\/|\bChrome\//, 'Chrome'],
  [/\bChromium\//, 'Chromium'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
  [/\bMSIE |\bTrident\//, 'Internet Explorer'],
  [/^curl\//, 'curl'],
  // Node's own fetch (undici) sends just "node": the hub and scripts.
  [/^node$|^undici\b/, 'Node.js'],
];

/** iOS and Android before macOS and Linux: their user agents name those too ("like Mac OS X", "Linux; Android"). */
const SYSTEMS: [RegExp, string][] = [
  [/\bWindows Phone\b/, 'Windows Phone'],
  [/\bWindows NT\b|\bWindows\b/, 'Windows'],
  [/\biPad\b/, 'iPadOS'],
  [/\biPhone\b|\biPod\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b|\bX11\b/, 'Linux'],
];

export interface ParsedUserAgent {
  browser: string;
  os: string;
}

export function parseUserAgent(userAgent: string | undefined): ParsedUserAgent {
  const ua = (userAgent ?? '').slice(0, USER_AGENT_MAX).trim();
  const browser = BROWSERS.find(([rule]) => rule.test(ua))?.[1] ?? UNKNOWN_BROWSER;
  const os = SYSTEMS.find(([rule]) => rule.test(ua))?.[1] ?? UNKNOWN_SYSTEM;
  return { browser, os };
}

/** "Firefox on Windows": how a mail names a browser, and the key of an account's known browsers. */
export function browserLabel({ browser, os }: ParsedUserAgent): string {
  return os === UNKNOWN_SYSTEM ? browser : `${browser} on ${os}`;
}

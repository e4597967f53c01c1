import { describe, expect, it } from 'vitest';
import { browserLabel, parseUserAgent } from './security.user-agent.ts';

describe('parseUserAgent', () => {
  it.each([
    [
      'Chrome on Windows',
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      'Chrome',
      'Windows',
    ],
    [
      'Edge on Windows (names Chrome too)',
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86',
      'Edge',
      'Windows',
    ],
    ['Firefox on Linux', 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0', 'Firefox', 'Linux'],
    [
      'Safari on macOS',
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
      'Safari',
      'macOS',
    ],
    [
      'Safari on iPhone (says "like Mac OS X")',
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
      'Safari',
      'iOS',
    ],
    [
      'Chrome on iPad (CriOS)',
      'Mozilla/5.0 (iPad; CPU OS 17_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1',
      'Chrome',
      'iPadOS',
    ],
    [
      'Chrome on Android (says Linux)',
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
      'Chrome',
      'Android',
    ],
    [
      'Samsung Internet (names Chrome too)',
      'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36',
      'Samsung Internet',
      'Android',
    ],
    [
      'Opera on macOS',
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 OPR/115.0.0.0',
      'Opera',
      'macOS',
    ],
    [
      'Firefox on iOS',
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/133.0 Mobile/15E148 Safari/605.1.15',
      'Firefox',
      'iOS',
    ],
    [
      'Chrome on ChromeOS',
      'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      'Chrome',
      'ChromeOS',
    ],
    [
      'headless Chromium (the end-to-end tests)',
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/138.0.0.0 Safari/537.36',
      'Headless Chrome',
      'Linux',
    ],
    ['Node fetch (the hub, scripts)', 'node', 'Node.js', 'Unknown system'],
    ['curl', 'curl/8.5.0', 'curl', 'Unknown system'],
    ['nothing', '', 'Unknown browser', 'Unknown system'],
    ['made-up text', 'My Own Browser 1.0', 'Unknown browser', 'Unknown system'],
  ])('%s', (_what, ua, browser, os) => {
    expect(parseUserAgent(ua)).toEqual({ browser, os });
  });

  it('reads no further than the kept length', () => {
    expect(parseUserAgent(`${'x'.repeat(600)} Firefox/133.0`).browser).toBe('Unknown browser');
  });
});

describe('browserLabel', () => {
  it.each([
    [{ browser: 'Firefox', os: 'Windows' }, 'Firefox on Windows'],
    [{ browser: 'Node.js', os: 'Unknown system' }, 'Node.js'],
    [{ browser: 'Unknown browser', os: 'Linux' }, 'Unknown browser on Linux'],
  ])('%o -> %s', (parsed, label) => {
    expect(browserLabel(parsed)).toBe(label);
  });
});

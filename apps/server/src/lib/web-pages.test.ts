import { describe, expect, it } from 'vitest';
import { hasCookie, inlineScriptHashes } from './web-pages.ts';

describe('hasCookie (the web app reads document.cookie the same way)', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['cookie_notice_acknowledged=true', true],
    ['a=1; cookie_notice_acknowledged=true; b=2', true],
    ['a=1;cookie_notice_acknowledged=', true],
    [' cookie_notice_acknowledged = true ', true],
    ['cookie_notice_acknowledged', false],
    ['xcookie_notice_acknowledged=true', false],
    ['a=cookie_notice_acknowledged=true', false],
  ])('%s -> %s', (header, expected) => expect(hasCookie(header, 'cookie_notice_acknowledged')).toBe(expected));
});

describe('inlineScriptHashes', () => {
  // sha256 of the script text `a()`, base64 (as a CSP hash source)
  const A = "'sha256-qVpDBgj7bpq5hMAcGp3AOc79J3Y1Z4HvySTwKrWDoy4='";
  it.each([
    ['<script>a()</script>', [A]],
    ['<script type="module">a()</script>', [A]],
    ['<script type="module" src="/a.js"></script>', []],
    ['<script src="/a.js"></script>', []],
    ['<script type="application/json" id="portal-config">{"a":1}</script>', []],
    ['<SCRIPT>a()</SCRIPT><p>x</p>', [A]],
  ])('%s', (html, expected) => expect(inlineScriptHashes(html)).toEqual(expected));
});

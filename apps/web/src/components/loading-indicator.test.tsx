import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { LoadingIndicator } from './loading-indicator';

describe("index.html's loading indicator", () => {
  it('is the markup the app draws while the session check runs, so nothing moves when the app takes over', () => {
    const html = readFileSync(join(import.meta.dirname, '../../index.html'), 'utf8');
    const inApp = /<div id="app">([\s\S]*?)<\/div>\s*<script/.exec(html)?.[1];
    expect(inApp).toBe(renderToStaticMarkup(<LoadingIndicator />));
  });
});

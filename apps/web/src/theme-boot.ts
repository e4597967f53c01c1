// Applies the stored theme before React renders, so a dark-theme user sees no light flash.
// (A module script: the Content-Security-Policy allows no inline script.)
const stored = localStorage.getItem('theme');
const dark =
  stored === 'dark' || ((stored === null || stored === 'system') && matchMedia('(prefers-color-scheme: dark)').matches);
if (dark && !location.pathname.startsWith('/landing')) document.documentElement.classList.add('dark');

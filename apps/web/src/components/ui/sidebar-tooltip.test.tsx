import { act, createEvent, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SidebarMenuButton, SidebarProvider } from './sidebar';

// A desktop window: the tooltips belong to the collapsed desktop sidebar only.
beforeEach(() => {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: false,
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
});
afterEach(() => vi.unstubAllGlobals());

function renderButton(collapsed: boolean) {
  render(
    <SidebarProvider defaultOpen={!collapsed}>
      <SidebarMenuButton tooltip="Downloads">
        <span>D</span>
      </SidebarMenuButton>
    </SidebarProvider>,
  );
  return screen.getByRole('button');
}

describe("the collapsed sidebar's tooltips (docs/decisions/034)", () => {
  it('names the icon on hover and on focus, describes the button, and closes on leave, Escape and press', () => {
    const button = renderButton(true);
    expect(screen.queryByRole('tooltip')).toBeNull();

    fireEvent.pointerEnter(button, { pointerType: 'mouse' });
    const tip = screen.getByRole('tooltip');
    expect(tip.textContent).toBe('Downloads');
    expect(button.getAttribute('aria-describedby')).toBe(tip.id);
    fireEvent.pointerLeave(button);
    expect(screen.queryByRole('tooltip')).toBeNull();
    expect(button.hasAttribute('aria-describedby')).toBe(false);

    act(() => button.focus());
    expect(screen.getByRole('tooltip').textContent).toBe('Downloads');
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('tooltip')).toBeNull();

    fireEvent.pointerEnter(button, { pointerType: 'mouse' });
    fireEvent.pointerDown(button);
    expect(screen.queryByRole('tooltip')).toBeNull();

    // A touch does not open it (jsdom's pointer events carry no pointerType of their own).
    const touch = createEvent.pointerEnter(button);
    Object.defineProperty(touch, 'pointerType', { value: 'touch' });
    fireEvent(button, touch);
    expect(screen.queryByRole('tooltip')).toBeNull();
  });

  it('stays closed while the sidebar shows its labels', () => {
    const button = renderButton(false);
    fireEvent.pointerEnter(button, { pointerType: 'mouse' });
    act(() => button.focus());
    expect(screen.queryByRole('tooltip')).toBeNull();
  });
});

import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppShellLogo } from './app-shell-logo';

const navigate = vi.fn();
vi.mock('@tanstack/react-router', () => ({ useNavigate: () => navigate }));

beforeEach(() => {
  vi.useFakeTimers();
  navigate.mockClear();
});
afterEach(() => vi.useRealTimers());

const logo = () => screen.getByRole('link', { name: /go to dashboard/ });
const spinning = () => screen.getByRole('link').querySelector('img')?.hasAttribute('data-spinning');

describe('the sidebar logo (spec/000 §2 Sidebar)', () => {
  it('goes to the dashboard 300 ms after one click', () => {
    render(<AppShellLogo />);
    fireEvent.click(logo());
    act(() => vi.advanceTimersByTime(299));
    expect(navigate).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(navigate).toHaveBeenCalledExactlyOnceWith({ to: '/dashboard' });
  });

  it('spins for 2 s after three quick clicks, and does not navigate', () => {
    render(<AppShellLogo />);
    fireEvent.click(logo());
    act(() => vi.advanceTimersByTime(100));
    fireEvent.click(logo());
    act(() => vi.advanceTimersByTime(100));
    fireEvent.click(logo());
    expect(spinning()).toBe(true);
    act(() => vi.advanceTimersByTime(1_999));
    expect(spinning()).toBe(true);
    act(() => vi.advanceTimersByTime(1));
    expect(spinning()).toBe(false);
    act(() => vi.advanceTimersByTime(5_000));
    expect(navigate).not.toHaveBeenCalled();
  });

  it('navigates once for two clicks that stay under three', () => {
    render(<AppShellLogo />);
    fireEvent.click(logo());
    act(() => vi.advanceTimersByTime(200));
    fireEvent.click(logo());
    act(() => vi.advanceTimersByTime(300));
    expect(navigate).toHaveBeenCalledOnce();
    expect(spinning()).toBe(false);
  });
});

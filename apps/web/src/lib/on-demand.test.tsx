import { act, createEvent, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { type Arrival, onDemand, useMenuArrival, useStandInTrigger } from './on-demand';

/**
 * A menu fetched on first use (docs/decisions/034), as the shell's menus are written: a stand-in
 * button until the code arrives, then Radix's menu, open if the stand-in was pressed meanwhile.
 */
function Menu({ arrival }: { arrival: Arrival }) {
  const { trigger, onContentFocus } = useMenuArrival(arrival);
  return (
    <DropdownMenu defaultOpen={arrival.open}>
      <DropdownMenuTrigger asChild>
        <Button ref={trigger}>Options</Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent onFocus={onContentFocus}>
        <DropdownMenuItem disabled>Archived</DropdownMenuItem>
        <DropdownMenuItem>Rename</DropdownMenuItem>
        <DropdownMenuItem>Delete</DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

function setup() {
  let arrive: (module: { Menu: typeof Menu }) => void = () => undefined;
  const menuModule = onDemand(() => new Promise<{ Menu: typeof Menu }>((resolve) => (arrive = resolve)));
  function Harness() {
    const loaded = menuModule.useModule();
    const standIn = useStandInTrigger(menuModule, 'pointerdown');
    if (loaded) return <loaded.Menu arrival={standIn.arrival()} />;
    return (
      <Button aria-haspopup="menu" aria-expanded={false} data-state="closed" {...standIn.handlers}>
        Options
      </Button>
    );
  }
  render(<Harness />);
  return { standIn: screen.getByRole('button', { name: 'Options' }), arrive: () => act(async () => arrive({ Menu })) };
}

describe('a menu pressed before its code arrived', () => {
  it.each([['Enter'], [' '], ['ArrowDown']])(
    'opened with %j, it focuses the first item that can be chosen, as a keyboard open does',
    async (key) => {
      const { standIn, arrive } = setup();
      act(() => standIn.focus());
      fireEvent.keyDown(standIn, { key });
      await arrive();
      expect(screen.getByRole('menu')).toBeTruthy();
      expect(document.activeElement?.textContent).toBe('Rename');
    },
  );

  it('opened with the pointer, the focus stays on the menu itself, as a pointer open does', async () => {
    const { standIn, arrive } = setup();
    // jsdom has no PointerEvent: a plain event, given the primary button.
    const press = createEvent.pointerDown(standIn);
    Object.defineProperty(press, 'button', { value: 0 });
    fireEvent(standIn, press);
    await arrive();
    expect(document.activeElement).toBe(screen.getByRole('menu'));
  });

  it('not pressed, it arrives closed', async () => {
    const { standIn, arrive } = setup();
    fireEvent.focus(standIn);
    await arrive();
    expect(screen.queryByRole('menu')).toBeNull();
  });
});

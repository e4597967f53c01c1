import { fireEvent, render, screen } from '@testing-library/react';
import * as React from 'react';
import { describe, expect, it } from 'vitest';
import { Collapsible, CollapsibleContent, CollapsibleTrigger } from './collapsible';

function Section({ asChild = false, preventToggle = false }: { asChild?: boolean; preventToggle?: boolean }) {
  const [open, setOpen] = React.useState(false);
  const onClick = preventToggle ? (e: React.MouseEvent) => e.preventDefault() : undefined;
  return asChild ? (
    <ul>
      <Collapsible asChild open={open} onOpenChange={setOpen}>
        <li data-testid="root">
          <CollapsibleTrigger asChild onClick={onClick}>
            <button type="button">Products</button>
          </CollapsibleTrigger>
          <CollapsibleContent>Robot drivers</CollapsibleContent>
        </li>
      </Collapsible>
    </ul>
  ) : (
    <Collapsible open={open} onOpenChange={setOpen} data-testid="root">
      <CollapsibleTrigger onClick={onClick}>Products</CollapsibleTrigger>
      <CollapsibleContent>Robot drivers</CollapsibleContent>
    </Collapsible>
  );
}

describe('Collapsible: a trigger that shows and hides its content', () => {
  it.each([
    ['its own elements', false],
    ['the elements it is given (asChild)', true],
  ])('on %s: closed, open, closed again, with the state on every part', (_name, asChild) => {
    render(<Section asChild={asChild} />);
    const trigger = screen.getByRole('button', { name: 'Products' });
    const root = screen.getByTestId('root');
    expect(root.tagName).toBe(asChild ? 'LI' : 'DIV');
    const state = () => ({
      root: root.dataset.state,
      trigger: trigger.dataset.state,
      expanded: trigger.getAttribute('aria-expanded'),
      content: screen.queryByText('Robot drivers')?.dataset.state ?? null,
    });
    expect(state()).toEqual({ root: 'closed', trigger: 'closed', expanded: 'false', content: null });
    expect(trigger.getAttribute('type')).toBe('button');
    fireEvent.click(trigger);
    expect(state()).toEqual({ root: 'open', trigger: 'open', expanded: 'true', content: 'open' });
    expect(trigger.getAttribute('aria-controls')).toBe(screen.getByText('Robot drivers').id);
    fireEvent.click(trigger);
    expect(state()).toEqual({ root: 'closed', trigger: 'closed', expanded: 'false', content: null });
  });

  it("a trigger's own click handler that prevents the default keeps it as it is", () => {
    render(<Section preventToggle />);
    fireEvent.click(screen.getByRole('button', { name: 'Products' }));
    expect(screen.queryByText('Robot drivers')).toBeNull();
  });
});

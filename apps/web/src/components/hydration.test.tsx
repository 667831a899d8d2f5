import { useState } from 'react';
import { act } from '@testing-library/react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { MantineProvider, PasswordInput } from '@mantine/core';
import { afterEach, describe, expect, it } from 'vitest';
import { useIsHydrated, useTypedBeforeHydration } from './hydration.ts';

/** A prerendered form in small: a controlled Mantine field, what its state holds, and Send. */
function Form() {
  const [value, setValue] = useState('');
  const ref = useTypedBeforeHydration(value, setValue);
  const isHydrated = useIsHydrated();
  return (
    <MantineProvider>
      <PasswordInput
        ref={ref}
        label="Password"
        value={value}
        onChange={(e) => setValue(e.currentTarget.value)}
      />
      <output>{value}</output>
      <button type="submit" disabled={!isHydrated}>
        Send
      </button>
    </MantineProvider>
  );
}

let root: Root | undefined;
let container: HTMLElement | undefined;

afterEach(() => {
  act(() => root?.unmount());
  container?.remove();
  root = undefined;
  container = undefined;
});

/** The form's HTML as the build prerenders it, in the document, before any script runs. */
function prerender(): { input: HTMLInputElement; button: HTMLButtonElement } {
  container = document.createElement('div');
  container.innerHTML = renderToString(<Form />);
  document.body.append(container);
  return {
    input: container.querySelector('input')!,
    button: container.querySelector('button[type="submit"]')!,
  };
}

describe('a prerendered field taken over by the app', () => {
  it('keeps what was typed before hydration, in the field and in state', async () => {
    const { input, button } = prerender();
    expect(button.disabled).toBe(true);
    input.value = 'typed early';
    await act(async () => {
      root = hydrateRoot(container!, <Form />);
    });
    // The same element, not a redrawn one, holds the text, and the state holds it too.
    expect(container!.querySelector('input')).toBe(input);
    expect(input.value).toBe('typed early');
    expect(container!.querySelector('output')?.textContent).toBe('typed early');
    expect(button.disabled).toBe(false);
  });

  it('changes nothing when nothing was typed', async () => {
    const { input } = prerender();
    await act(async () => {
      root = hydrateRoot(container!, <Form />);
    });
    expect(input.value).toBe('');
    expect(container!.querySelector('output')?.textContent).toBe('');
  });
});

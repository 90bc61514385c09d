// Global keys (Space, ← ↑ →, PageUp/PageDown, + - r) must not take a key from the focused
// control that uses it: Space ticks a focused checkbox and presses a focused button, arrows
// move a focused slider, typing goes into fields and the editor.

const RANGE_KEYS = ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'PageUp', 'PageDown', 'Home', 'End'];
const PRESS_KEYS = [' ', 'Enter'];

/** Does the element with the focus use `key` itself? Then the page's shortcut leaves it alone. */
export function focusUsesKey(target: EventTarget | null, key: string): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') {
    const type = (target as HTMLInputElement).type;
    if (type === 'checkbox' || type === 'radio') return PRESS_KEYS.includes(key) || (type === 'radio' && RANGE_KEYS.includes(key));
    if (type === 'range') return RANGE_KEYS.includes(key);
    if (type === 'button' || type === 'submit' || type === 'reset') return PRESS_KEYS.includes(key);
    return true; // text, number, …: every key is typing
  }
  if (tag === 'BUTTON' || tag === 'SUMMARY' || (tag === 'A' && target.hasAttribute('href'))) return PRESS_KEYS.includes(key);
  const role = target.getAttribute('role');
  if (role === 'slider' || role === 'spinbutton' || role === 'tab' || role === 'listbox') return true;
  return false;
}

/** What a key does on the page (null: nothing of ours). Clickers send PageDown/PageUp (and arrows). */
export type KeyAction = 'play' | 'next' | 'prev' | 'forward' | 'back' | 'faster' | 'slower' | 'reset';

export function keyAction(e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'target'>): KeyAction | null {
  if (e.ctrlKey || e.metaKey || e.altKey) return null;
  if (focusUsesKey(e.target, e.key)) return null;
  switch (e.key) {
    case ' ':
      return 'play';
    case 'PageDown':
      return 'next'; // lesson step (time step without a lesson)
    case 'PageUp':
      return 'prev';
    case 'ArrowRight':
    case 'ArrowUp':
      return 'forward'; // time step
    case 'ArrowLeft':
      return 'back';
    case '+':
    case '=':
      return 'faster';
    case '-':
    case '_':
      return 'slower';
    case 'r':
      return 'reset';
    default:
      return null;
  }
}

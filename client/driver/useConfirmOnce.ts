import { useRef, useState } from 'preact/hooks';

/**
 * One confirmation is one action, however fast the button is pressed twice (a mouse double-click,
 * an impatient tap). A second press while the first is being saved is ignored before any await lets
 * it through; once the action is saved the button stays locked, because the screen is on its way
 * out and a press in the frames before it goes would queue the action again. `unlock` gives it back
 * (an undo brings the driver back to this form).
 */
export function useConfirmOnce(): { busy: boolean; run: (save: () => Promise<boolean>) => Promise<void>; unlock: () => void } {
  const pressed = useRef(false);
  const [busy, setBusy] = useState(false);
  const unlock = () => {
    pressed.current = false;
    setBusy(false);
  };
  const run = async (save: () => Promise<boolean>) => {
    if (pressed.current) return;
    pressed.current = true;
    setBusy(true);
    let saved = false;
    try {
      saved = await save();
    } finally {
      if (!saved) unlock();
    }
  };
  return { busy, run, unlock };
}

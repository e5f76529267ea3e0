/**
 * Where keyboard focus goes in a form: a dialog opens on its first field (not on its close
 * button, which comes first in the page and which radix-ui would focus), and a Continue that
 * fails lands on the first field whose reason is shown, so the reason is read out and the
 * field is ready to be fixed. A dialog that closes on success hands focus to the message saying
 * how it ended, not back to the button that opened it.
 */

/** Fields a person types into or chooses in; locked (read-only) ones and file pickers are skipped. */
const FIELD =
  'input:not([type="hidden"]):not([type="file"]):not([readonly]):not([disabled]), select:not([disabled]), textarea:not([readonly]):not([disabled])';

export function firstField(root: ParentNode | null): HTMLElement | null {
  return root?.querySelector<HTMLElement>(FIELD) ?? null;
}

/**
 * Frames to wait for React to draw the reasons: a refusal that comes back from the server is
 * rendered in a task of its own, which can come a frame or two after the reply's promise.
 */
const MAX_FRAMES_TO_WAIT = 10;

/** Once React has drawn the reasons (their fields carry aria-invalid), focuses the first. */
export function focusFirstInvalid(root: HTMLElement | null, framesLeft = MAX_FRAMES_TO_WAIT): void {
  requestAnimationFrame(() => {
    const invalid = root?.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (invalid) invalid.focus();
    else if (framesLeft > 1 && root?.isConnected) focusFirstInvalid(root, framesLeft - 1);
  });
}

/** Marks a toast that says how a closing dialog's action ended (Toaster's `result`). */
export const RESULT_ATTRIBUTE = 'data-result';

/**
 * Focuses the result that arrived as a dialog closed, once: read out, and kept on screen while
 * it has focus (radix-ui pauses a focused toast's timer). False when there is none, so the
 * dialog returns focus to its trigger as usual.
 */
export function focusArrivedResult(): boolean {
  const result = document.querySelector<HTMLElement>(`[${RESULT_ATTRIBUTE}="arrived"]`);
  if (!result?.isConnected) return false;
  result.setAttribute(RESULT_ATTRIBUTE, 'shown');
  result.focus();
  return document.activeElement === result;
}

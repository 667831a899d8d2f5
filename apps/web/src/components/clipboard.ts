/** Spec section 8: the notice after a table is copied. */
export const TABLE_COPIED_MESSAGE = 'Table contents copied to clipboard!';

/** Puts text on the clipboard; falls back to a hidden text area where the API is refused. */
export async function copyToClipboard(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    // Not a secure context or permission refused: the older path below still works there.
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  const isCopied = document.execCommand('copy');
  area.remove();
  // Refused as the API refuses it, so the message says what the person can do about it.
  if (!isCopied)
    throw new DOMException('The browser refused to copy to the clipboard', 'NotAllowedError');
}

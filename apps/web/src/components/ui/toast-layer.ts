// Toasts above every dialog (issue 14, item 2). A modal <dialog> sits in the browser's top layer and makes the rest
// of the page inert, so no z-index lifts a toast region in <body> over it: the toast shows dimmed under the
// backdrop and a screen reader does not announce it. The region therefore lives inside the topmost open modal
// dialog while one is open, and in <body> otherwise. Dialog calls raiseToasts() when it opens and closes; the
// toaster registers its host when it mounts. This module is tiny and free of the toast library on purpose.

let host: HTMLElement | null = null;

/** The toaster's container element (called once by mountToaster). */
export function setToastHost(element: HTMLElement): void {
  host = element;
  raiseToasts();
}

/** Moves the toast region into the topmost open modal dialog, or back to <body> when none is open. */
export function raiseToasts(): void {
  if (!host) return;
  const open = [...document.querySelectorAll('dialog[open]')].filter((d) => d.matches(':modal'));
  const target = open.at(-1) ?? document.body;
  if (host.parentElement !== target) target.appendChild(host);
}

/** Spec section 8 texts of the tutorial calls (the intro tutorial and the account page). */
export const TUTORIAL_MESSAGES = {
  disableFailed: "Tutorials can't be disabled at this point",
  doneFailed: "Tutorial couldn't be marked as done",
  resetFailed: "Tutorials couldn't be reset",
  resetDone: 'Tutorials have been reset',
} as const;

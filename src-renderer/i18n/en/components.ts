/** Shared components (model picker, copy button, dialogs, notices). */
export const components = {};

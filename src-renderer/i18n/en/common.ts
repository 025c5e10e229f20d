/** Words many screens share. */
export const common = {
  loading: 'Loading…',
  save: 'Save',
  saved: 'Saved',
  cancel: 'Cancel',
  close: 'Close',
  delete: 'Delete',
  remove: 'Remove',
  edit: 'Edit',
  retry: 'Retry',
  ok: 'OK',
  none: '–',
};

/**
 * Where the person had scrolled each conversation to (by session id, a new chat as `new`), so
 * leaving the chat for another screen and coming back shows the same lines. Kept for this window's
 * life only (a reload opens at the newest message, as chat apps do).
 */
export interface ScrollPlace {
  top: number;
  /** at the newest message: it keeps following the answer */
  atEnd: boolean;
}

const places = new Map<string, ScrollPlace>();

export const scrollPlaces = {
  get: (key: string): ScrollPlace | undefined => places.get(key),
  set: (key: string, place: ScrollPlace): void => void places.set(key, place),
};

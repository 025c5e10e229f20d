/**
 * Trimming by scan, not by regex: `/x+$/` tries the run again from each of its characters, so a
 * long run of `x` not at the end costs the square of its length (lint refuses such patterns).
 */

/** `s` without the characters of `chars` at its end. */
export function trimEndOf(s: string, chars: string): string {
  let end = s.length;
  while (end > 0 && chars.includes(s[end - 1])) end--;
  return end === s.length ? s : s.slice(0, end);
}

/** `s` without the characters of `chars` at either end. */
export function trimOf(s: string, chars: string): string {
  let start = 0;
  while (start < s.length && chars.includes(s[start])) start++;
  return trimEndOf(s.slice(start), chars);
}

/** A URL without its trailing slashes. */
export const noTrailingSlash = (url: string): string => trimEndOf(url, '/');

import fs from 'node:fs';
import { parseFile } from 'music-metadata';
import { UnreadableFileError, type Extractor } from '../types.js';
import { parseAsf, parseAvi, parseFlv, parseIsoBmff, parseMatroska, type VideoInfo } from './video-headers.js';
import { sniff } from './sniff.js';

const round3 = (n: number) => Math.round(n * 1000) / 1000;

function readRange(path: string, size: number, start: number, length: number): Buffer {
  const fd = fs.openSync(path, 'r');
  try {
    const n = Math.max(0, Math.min(length, size - start));
    const buf = Buffer.alloc(n);
    fs.readSync(fd, buf, 0, n, start);
    return buf;
  } finally {
    fs.closeSync(fd);
  }
}

/** AVI, FLV, MKV, WMV: our own header readers (see video-headers.ts). */
function videoHeaders(path: string, ext: string, size: number): VideoInfo | null {
  const head = readRange(path, size, 0, 4 << 20);
  if (ext === 'avi') return parseAvi(head);
  if (ext === 'mkv') return parseMatroska(head);
  if (ext === 'wmv') return parseAsf(head);
  if (ext === 'flv') return parseFlv(head, readRange(path, size, Math.max(0, size - (1 << 16)), 1 << 16));
  return null;
}

/**
 * Audio and video: duration and stream metadata. mp3, wav, aac, ogg, flac, m4a, mp4 and mov go
 * through music-metadata; avi, mkv, wmv and flv through our header readers. Tags (title,
 * artist, album, comment) become text so an agent can find the file by them.
 */
export const extractMedia: Extractor = async (file, sink) => {
  if (['avi', 'mkv', 'wmv', 'flv'].includes(file.ext)) {
    const info = videoHeaders(file.path, file.ext, file.bytes);
    if (!info) {
      const what = sniff(readRange(file.path, file.bytes, 0, 64));
      throw new UnreadableFileError(`The file is not a valid .${file.ext} video${what ? ` (it looks like ${what})` : ''}.`);
    }
    if (!info.streams.length && info.duration === undefined) throw new UnreadableFileError(`The .${file.ext} file is damaged: no streams or duration in its headers.`);
    if (info.title) sink.text(`Title: ${info.title}\n`);
    return info;
  }
  let mm;
  try {
    // ADTS AAC has no header with a length: its duration needs a pass over the frames.
    mm = await parseFile(file.path, { duration: file.ext === 'aac', skipCovers: true });
  } catch (err) {
    const what = sniff(readRange(file.path, file.bytes, 0, 64));
    throw new UnreadableFileError(`The media file is damaged or not a .${file.ext} file${what ? ` (it looks like ${what})` : ''}: ${(err as Error).message}`);
  }
  const f = mm.format;
  if (!f.container && f.duration === undefined) throw new UnreadableFileError(`The media file is damaged or not a .${file.ext} file.`);
  const streams = (f.trackInfo ?? []).map((t) => ({
    type: t.video ? 'video' : t.audio ? 'audio' : 'other',
    codec: t.codecName,
    width: t.video?.pixelWidth ?? t.video?.displayWidth,
    height: t.video?.pixelHeight ?? t.video?.displayHeight,
    sample_rate: t.audio?.samplingFrequency,
    channels: t.audio?.channels,
    language: t.language,
  }));
  const meta: Record<string, unknown> = {
    container: f.container,
    codec: f.codec,
    duration: f.duration !== undefined ? round3(f.duration) : undefined,
    bitrate: f.bitrate !== undefined ? Math.round(f.bitrate) : undefined,
    sample_rate: f.sampleRate,
    channels: f.numberOfChannels,
    lossless: f.lossless,
    streams: streams.length ? streams : undefined,
  };
  // Video tracks (size, codec) and a QuickTime duration come from our own moov reader.
  if (['mp4', 'mov', 'm4a'].includes(file.ext)) {
    const fd = fs.openSync(file.path, 'r');
    try {
      const iso = parseIsoBmff((pos, len) => {
        const buf = Buffer.alloc(Math.max(0, Math.min(len, file.bytes - pos)));
        fs.readSync(fd, buf, 0, buf.length, pos);
        return buf;
      }, file.bytes);
      if (iso?.streams.length) meta.streams = iso.streams;
      if (meta.duration === undefined && iso?.duration !== undefined) meta.duration = iso.duration;
      if (!mm.common.title && iso?.title) mm.common.title = iso.title;
    } finally {
      fs.closeSync(fd);
    }
  }
  const c = mm.common;
  const tags: Record<string, string | undefined> = {
    title: c.title,
    artist: c.artist,
    album: c.album,
    year: c.year ? String(c.year) : undefined,
    genre: c.genre?.join(', '),
    comment: c.comment?.map((x) => (typeof x === 'string' ? x : (x as { text?: string }).text ?? '')).join(' '),
  };
  for (const [k, v] of Object.entries(tags)) {
    if (!v) continue;
    meta[k] = v;
    sink.text(`${k[0].toUpperCase()}${k.slice(1)}: ${v}\n`);
  }
  return Object.fromEntries(Object.entries(meta).filter(([, v]) => v !== undefined));
};

/**
 * Header readers for the video containers music-metadata does not cover (AVI, FLV) or covers
 * only for audio (Matroska, ASF/WMV): duration and per-stream codec, size and audio format,
 * read from the first bytes of the file (and, for FLV without metadata, its last tag).
 */
import { trimEndOf } from '../../kernel/trim.js';

export interface VideoInfo {
  container: string;
  duration?: number;
  streams: { type: 'video' | 'audio' | 'subtitle' | 'other'; codec?: string; width?: number; height?: number; sample_rate?: number; channels?: number; language?: string }[];
  title?: string;
  [k: string]: unknown;
}

const fourcc = (b: Buffer, at: number) => trimEndOf(b.toString('latin1', at, at + 4), '\0').trim();
const round3 = (n: number) => Math.round(n * 1000) / 1000;

// ---------- AVI (RIFF) ----------
export function parseAvi(b: Buffer): VideoInfo | null {
  if (b.length < 12 || fourcc(b, 0) !== 'RIFF' || fourcc(b, 8) !== 'AVI') return null;
  const info: VideoInfo = { container: 'AVI', streams: [] };
  let usPerFrame = 0;
  let frames = 0;
  let current: VideoInfo['streams'][number] | null = null;
  const walk = (start: number, end: number) => {
    let at = start;
    while (at + 8 <= end) {
      const id = b.toString('latin1', at, at + 4);
      const size = b.readUInt32LE(at + 4);
      const body = at + 8;
      const stop = Math.min(body + size, end);
      if (id === 'LIST') {
        const kind = b.toString('latin1', body, body + 4);
        if (kind === 'movi') return; // the frames: headers are done
        walk(body + 4, stop);
      } else if (id === 'avih' && size >= 40) {
        usPerFrame = b.readUInt32LE(body);
        frames = b.readUInt32LE(body + 16);
        info.width = b.readUInt32LE(body + 32);
        info.height = b.readUInt32LE(body + 36);
      } else if (id === 'strh' && size >= 36) {
        const t = fourcc(b, body);
        current = { type: t === 'vids' ? 'video' : t === 'auds' ? 'audio' : t === 'txts' ? 'subtitle' : 'other' };
        const handler = fourcc(b, body + 4);
        if (handler) current.codec = handler;
        info.streams.push(current);
      } else if (id === 'strf' && current) {
        if (current.type === 'video' && size >= 20) {
          current.width = b.readInt32LE(body + 4);
          current.height = Math.abs(b.readInt32LE(body + 8));
          const comp = fourcc(b, body + 16);
          if (comp) current.codec = comp;
        } else if (current.type === 'audio' && size >= 8) {
          current.codec = `0x${b.readUInt16LE(body).toString(16).padStart(4, '0')}`;
          current.channels = b.readUInt16LE(body + 2);
          current.sample_rate = b.readUInt32LE(body + 4);
        }
      }
      at = body + size + (size & 1);
    }
  };
  walk(12, b.length);
  if (usPerFrame && frames) info.duration = round3((usPerFrame * frames) / 1e6);
  if (usPerFrame) info.frame_rate = round3(1e6 / usPerFrame);
  return info;
}

// ---------- Matroska / WebM (EBML) ----------
function vint(b: Buffer, at: number, keepMarker: boolean): { value: number; len: number; unknown: boolean } | null {
  const first = b[at];
  if (first === undefined || first === 0) return null;
  let len = 1;
  while (!(first & (0x80 >> (len - 1)))) len++;
  if (len > 8 || at + len > b.length) return null;
  let value = keepMarker ? first : first & (0xff >> len);
  let allOnes = value === (0xff >> len);
  for (let i = 1; i < len; i++) {
    value = value * 256 + b[at + i];
    if (b[at + i] !== 0xff) allOnes = false;
  }
  return { value, len, unknown: !keepMarker && allOnes };
}

const EBML = { Header: 0x1a45dfa3, DocType: 0x4282, Segment: 0x18538067, Info: 0x1549a966, TimecodeScale: 0x2ad7b1, Duration: 0x4489, Title: 0x7ba9, Tracks: 0x1654ae6b, TrackEntry: 0xae, TrackType: 0x83, CodecID: 0x86, Language: 0x22b59c, Video: 0xe0, PixelWidth: 0xb0, PixelHeight: 0xba, Audio: 0xe1, SamplingFrequency: 0xb5, Channels: 0x9f, Cluster: 0x1f43b675 };

export function parseMatroska(b: Buffer): VideoInfo | null {
  if (b.length < 4 || b.readUInt32BE(0) !== EBML.Header) return null;
  const info: VideoInfo = { container: 'Matroska', streams: [] };
  let scale = 1_000_000;
  let rawDuration: number | undefined;
  const uint = (at: number, len: number) => {
    let v = 0;
    for (let i = 0; i < len; i++) v = v * 256 + b[at + i];
    return v;
  };
  const float = (at: number, len: number) => (len === 4 ? b.readFloatBE(at) : len === 8 ? b.readDoubleBE(at) : NaN);
  let track: VideoInfo['streams'][number] | null = null;
  const walk = (start: number, end: number, depth: number): boolean => {
    let at = start;
    while (at < end) {
      const id = vint(b, at, true);
      if (!id) return false;
      const size = vint(b, at + id.len, false);
      if (!size) return false;
      const body = at + id.len + size.len;
      const stop = size.unknown ? end : Math.min(body + size.value, end);
      switch (id.value) {
        case EBML.Header:
        case EBML.Segment:
        case EBML.Info:
        case EBML.Tracks:
        case EBML.Video:
        case EBML.Audio:
          if (depth < 8 && !walk(body, stop, depth + 1)) return false;
          break;
        case EBML.TrackEntry:
          track = { type: 'other' };
          info.streams.push(track);
          if (depth < 8 && !walk(body, stop, depth + 1)) return false;
          break;
        case EBML.Cluster:
          return false; // media data: every header we read comes before it
        case EBML.DocType:
          info.doc_type = b.toString('latin1', body, stop);
          break;
        case EBML.TimecodeScale:
          scale = uint(body, stop - body);
          break;
        case EBML.Duration:
          rawDuration = float(body, stop - body);
          break;
        case EBML.Title:
          info.title = b.toString('utf8', body, stop);
          break;
        case EBML.TrackType: {
          const t = uint(body, stop - body);
          if (track) track.type = t === 1 ? 'video' : t === 2 ? 'audio' : t === 17 ? 'subtitle' : 'other';
          break;
        }
        case EBML.CodecID:
          if (track) track.codec = b.toString('latin1', body, stop);
          break;
        case EBML.Language:
          if (track) track.language = trimEndOf(b.toString('latin1', body, stop), '\0');
          break;
        case EBML.PixelWidth:
          if (track) track.width = uint(body, stop - body);
          break;
        case EBML.PixelHeight:
          if (track) track.height = uint(body, stop - body);
          break;
        case EBML.SamplingFrequency:
          if (track) track.sample_rate = float(body, stop - body);
          break;
        case EBML.Channels:
          if (track) track.channels = uint(body, stop - body);
          break;
      }
      if (size.unknown) return true;
      at = body + size.value;
    }
    return true;
  };
  walk(0, b.length, 0);
  if (info.doc_type === 'webm') info.container = 'WebM';
  if (rawDuration !== undefined && Number.isFinite(rawDuration)) info.duration = round3((rawDuration * scale) / 1e9);
  return info;
}

// ---------- ASF (WMV/WMA) ----------
const guid = (s: string) => {
  const h = s.replace(/-/g, '');
  const le = (x: string) => x.match(/../g)!.reverse().join('');
  return Buffer.from(le(h.slice(0, 8)) + le(h.slice(8, 12)) + le(h.slice(12, 16)) + h.slice(16), 'hex');
};
const ASF = {
  header: guid('75B22630-668E-11CF-A6D9-00AA0062CE6C'),
  fileProps: guid('8CABDCA1-A947-11CF-8EE4-00C00C205365'),
  streamProps: guid('B7DC0791-A9B7-11CF-8EE6-00C00C205365'),
  audio: guid('F8699E40-5B4D-11CF-A8FD-00805F5C442B'),
  video: guid('BC19EFC0-5B4D-11CF-A8FD-00805F5C442B'),
  content: guid('75B22633-668E-11CF-A6D9-00AA0062CE6C'),
};

export function parseAsf(b: Buffer): VideoInfo | null {
  if (b.length < 30 || !b.subarray(0, 16).equals(ASF.header)) return null;
  const info: VideoInfo = { container: 'ASF', streams: [] };
  const end = Math.min(b.length, Number(b.readBigUInt64LE(16)));
  let at = 30;
  while (at + 24 <= end) {
    const id = b.subarray(at, at + 16);
    const size = Number(b.readBigUInt64LE(at + 16));
    if (size < 24 || at + size > end) break;
    const body = at + 24;
    if (id.equals(ASF.fileProps) && size >= 104) {
      const play = Number(b.readBigUInt64LE(body + 40)) / 1e7;
      const preroll = Number(b.readBigUInt64LE(body + 56)) / 1000;
      info.duration = round3(Math.max(0, play - preroll));
    } else if (id.equals(ASF.streamProps) && size >= 78) {
      const type = b.subarray(body, body + 16);
      const ts = body + 54;
      if (type.equals(ASF.video)) {
        const s: VideoInfo['streams'][number] = { type: 'video', width: b.readUInt32LE(ts), height: b.readUInt32LE(ts + 4) };
        if (ts + 11 + 20 <= at + size) s.codec = fourcc(b, ts + 11 + 16);
        info.streams.push(s);
      } else if (type.equals(ASF.audio)) {
        info.streams.push({ type: 'audio', codec: `0x${b.readUInt16LE(ts).toString(16).padStart(4, '0')}`, channels: b.readUInt16LE(ts + 2), sample_rate: b.readUInt32LE(ts + 4) });
      } else info.streams.push({ type: 'other' });
    } else if (id.equals(ASF.content) && size >= 34) {
      const titleLen = b.readUInt16LE(body);
      if (titleLen > 2) info.title = trimEndOf(b.toString('utf16le', body + 10, body + 10 + titleLen), '\0');
    }
    at += size;
  }
  return info;
}

// ---------- FLV ----------
function amf0(b: Buffer, at: number, depth = 0): { value: unknown; next: number } {
  const type = b[at];
  const p = at + 1;
  const key = (q: number) => {
    const n = b.readUInt16BE(q);
    return { k: b.toString('utf8', q + 2, q + 2 + n), next: q + 2 + n };
  };
  const props = (q: number) => {
    const o: Record<string, unknown> = {};
    while (q + 3 <= b.length && !(b.readUInt16BE(q) === 0 && b[q + 2] === 9)) {
      const { k, next } = key(q);
      const v = amf0(b, next, depth + 1);
      o[k] = v.value;
      q = v.next;
    }
    return { value: o, next: q + 3 };
  };
  if (depth > 16) throw new Error('AMF nesting too deep');
  switch (type) {
    case 0x00:
      return { value: b.readDoubleBE(p), next: p + 8 };
    case 0x01:
      return { value: b[p] !== 0, next: p + 1 };
    case 0x02: {
      const { k, next } = key(p);
      return { value: k, next };
    }
    case 0x03:
      return props(p);
    case 0x08:
      return props(p + 4);
    case 0x0a: {
      const n = b.readUInt32BE(p);
      const arr: unknown[] = [];
      let q = p + 4;
      for (let i = 0; i < n && i < 100_000; i++) {
        const v = amf0(b, q, depth + 1);
        arr.push(v.value);
        q = v.next;
      }
      return { value: arr, next: q };
    }
    case 0x0b:
      return { value: b.readDoubleBE(p), next: p + 10 };
    case 0x0c: {
      const n = b.readUInt32BE(p);
      return { value: b.toString('utf8', p + 4, p + 4 + n), next: p + 4 + n };
    }
    case 0x05:
    case 0x06:
      return { value: null, next: p };
    default:
      throw new Error(`AMF type ${type} not supported`);
  }
}

const FLV_VIDEO: Record<number, string> = { 2: 'Sorenson H.263', 3: 'Screen video', 4: 'VP6', 5: 'VP6 alpha', 6: 'Screen video 2', 7: 'AVC' };
const FLV_AUDIO: Record<number, string> = { 0: 'PCM', 1: 'ADPCM', 2: 'MP3', 3: 'PCM LE', 10: 'AAC', 11: 'Speex', 14: 'MP3 8kHz' };

/** `head` is the file's start; `tail` its last bytes (for the last tag's timestamp when metadata lacks a duration). */
export function parseFlv(head: Buffer, tail?: Buffer): VideoInfo | null {
  if (head.length < 13 || head.toString('latin1', 0, 3) !== 'FLV') return null;
  const info: VideoInfo = { container: 'FLV', streams: [] };
  const flags = head[4];
  let at = head.readUInt32BE(5) + 4;
  let sawVideo = false;
  let sawAudio = false;
  let meta: Record<string, unknown> = {};
  for (let n = 0; at + 11 <= head.length && n < 64; n++) {
    const type = head[at] & 0x1f;
    const size = head.readUIntBE(at + 1, 3);
    const data = at + 11;
    if (data + size > head.length) break;
    if (type === 18) {
      try {
        const name = amf0(head, data);
        if (name.value === 'onMetaData') meta = (amf0(head, name.next).value as Record<string, unknown>) ?? {};
      } catch {}
    } else if (type === 9 && !sawVideo && size > 0) {
      sawVideo = true;
      info.streams.push({ type: 'video', codec: FLV_VIDEO[head[data] & 0x0f] ?? `id ${head[data] & 0x0f}` });
    } else if (type === 8 && !sawAudio && size > 0) {
      sawAudio = true;
      const a = head[data];
      info.streams.push({ type: 'audio', codec: FLV_AUDIO[a >> 4] ?? `id ${a >> 4}`, sample_rate: [5512, 11025, 22050, 44100][(a >> 2) & 3], channels: (a & 1) + 1 });
    }
    if (sawVideo && sawAudio && Object.keys(meta).length) break;
    at = data + size + 4;
  }
  if (typeof meta.duration === 'number' && meta.duration > 0) info.duration = round3(meta.duration);
  else if (tail && tail.length >= 15) {
    const last = tail.readUInt32BE(tail.length - 4);
    const start = tail.length - 4 - last;
    if (last >= 11 && start >= 0) info.duration = round3((tail.readUIntBE(start + 4, 3) | (tail[start + 7] << 24)) / 1000);
  }
  const video = info.streams.find((s) => s.type === 'video');
  if (video && typeof meta.width === 'number') video.width = meta.width;
  if (video && typeof meta.height === 'number') video.height = meta.height;
  if (typeof meta.framerate === 'number') info.frame_rate = round3(meta.framerate);
  if (!info.streams.length) {
    if (flags & 1) info.streams.push({ type: 'video' });
    if (flags & 4) info.streams.push({ type: 'audio' });
  }
  return info;
}

// ---------- MP4 / MOV (ISO base media) ----------
/**
 * Reads the `moov` box wherever it sits (front or end of the file) through `read(pos, len)`:
 * duration from mvhd, and per track the handler (vide/soun), codec (first stsd entry), size
 * (tkhd, 16.16 fixed) and audio format. music-metadata covers tags and audio, not video tracks.
 */
export function parseIsoBmff(read: (pos: number, len: number) => Buffer, size: number): VideoInfo | null {
  let moov: Buffer | null = null;
  let brand = '';
  for (let at = 0, n = 0; at + 8 <= size && n < 10_000; n++) {
    const h = read(at, 16);
    if (h.length < 8) break;
    let len = h.readUInt32BE(0);
    const type = h.toString('latin1', 4, 8);
    let hdr = 8;
    if (len === 1 && h.length >= 16) {
      len = Number(h.readBigUInt64BE(8));
      hdr = 16;
    } else if (len === 0) len = size - at;
    if (len < hdr) return null;
    if (n === 0 && type !== 'ftyp' && type !== 'moov' && type !== 'mdat' && type !== 'wide' && type !== 'free') return null;
    if (type === 'ftyp') brand = h.toString('latin1', 8, 12);
    if (type === 'moov') {
      if (len > 256 << 20) return null;
      moov = read(at + hdr, len - hdr);
      break;
    }
    at += len;
  }
  if (!moov) return null;
  const info: VideoInfo = { container: brand === 'qt  ' ? 'QuickTime' : 'MP4', streams: [] };
  const boxes = (b: Buffer, start: number, end: number, fn: (type: string, body: number, stop: number) => void) => {
    let at = start;
    while (at + 8 <= end) {
      const len = b.readUInt32BE(at);
      const type = b.toString('latin1', at + 4, at + 8);
      if (len < 8 || at + len > end) return;
      fn(type, at + 8, at + len);
      at += len;
    }
  };
  const m = moov;
  boxes(m, 0, m.length, (type, body, stop) => {
    if (type === 'udta') {
      // QuickTime user data: '©nam' holds the title as (length, language, text).
      boxes(m, body, stop, (t2, b2, s2) => {
        if (t2 === '\u00a9nam' && b2 + 4 <= s2) {
          const n = m.readUInt16BE(b2);
          if (n > 0 && b2 + 4 + n <= s2) info.title = m.toString('utf8', b2 + 4, b2 + 4 + n);
        }
      });
    } else if (type === 'mvhd') {
      const v1 = m[body] === 1;
      const scale = m.readUInt32BE(body + (v1 ? 20 : 12));
      const dur = v1 ? Number(m.readBigUInt64BE(body + 24)) : m.readUInt32BE(body + 16);
      if (scale) info.duration = round3(dur / scale);
    } else if (type === 'trak') {
      const s: VideoInfo['streams'][number] = { type: 'other' };
      let w = 0;
      let h = 0;
      boxes(m, body, stop, (t2, b2, s2) => {
        if (t2 === 'tkhd') {
          const v1 = m[b2] === 1;
          const off = b2 + (v1 ? 88 : 76);
          if (off + 8 <= s2) {
            w = m.readUInt32BE(off) / 65536;
            h = m.readUInt32BE(off + 4) / 65536;
          }
        } else if (t2 === 'mdia') {
          boxes(m, b2, s2, (t3, b3, s3) => {
            if (t3 === 'hdlr') {
              const handler = m.toString('latin1', b3 + 8, b3 + 12);
              s.type = handler === 'vide' ? 'video' : handler === 'soun' ? 'audio' : handler === 'sbtl' || handler === 'text' ? 'subtitle' : 'other';
            } else if (t3 === 'minf') {
              boxes(m, b3, s3, (t4, b4, s4) => {
                if (t4 !== 'stbl') return;
                boxes(m, b4, s4, (t5, b5) => {
                  if (t5 !== 'stsd' || m.readUInt32BE(b5 + 4) < 1) return;
                  const entry = b5 + 8;
                  s.codec = m.toString('latin1', entry + 4, entry + 8).trim();
                  if (s.type === 'audio' && entry + 36 <= m.length) {
                    s.channels = m.readUInt16BE(entry + 24);
                    s.sample_rate = m.readUInt32BE(entry + 32) / 65536;
                  }
                });
              });
            }
          });
        }
      });
      if (s.type === 'video' && w && h) {
        s.width = Math.round(w);
        s.height = Math.round(h);
      }
      info.streams.push(s);
    }
  });
  return info;
}

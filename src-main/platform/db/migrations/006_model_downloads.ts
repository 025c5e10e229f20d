import type { Migration } from '../migrate.js';

/**
 * GGUF downloads into the models folder. Durable rows, so a download paused or cut by a restart
 * resumes where its partial file ends (HTTP Range).
 */
export const m006ModelDownloads: Migration = {
  version: 6,
  name: 'model downloads',
  up(db) {
    db.exec(`
      CREATE TABLE model_downloads (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        url TEXT NOT NULL,
        file TEXT NOT NULL,
        sha256 TEXT,
        bytes INTEGER NOT NULL DEFAULT 0,
        total INTEGER,
        status TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued','downloading','paused','verifying','completed','failed')),
        error TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE UNIQUE INDEX model_downloads_file ON model_downloads(file);
    `);
  },
};

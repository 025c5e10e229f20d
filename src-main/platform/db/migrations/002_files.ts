import type { Migration } from '../migrate.js';

export const m002Files: Migration = {
  version: 2,
  name: 'files',
  up(db) {
    db.exec(`
      -- AUTOINCREMENT: a deleted file's id is never given to another file (clients keep ids).
      CREATE TABLE files (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        workspace_id INTEGER NOT NULL REFERENCES workspaces(id),
        user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
        filename TEXT NOT NULL,
        ext TEXT NOT NULL,
        kind TEXT NOT NULL,
        bytes INTEGER NOT NULL,
        sha256 TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'waiting' CHECK (status IN ('waiting','in_progress','completed','failed')),
        credits REAL NOT NULL DEFAULT 0,
        error TEXT,
        metadata TEXT,
        passages INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        processed_at INTEGER
      );
      CREATE INDEX files_workspace ON files(workspace_id, created_at, id);
      CREATE INDEX files_status ON files(status) WHERE status IN ('waiting','in_progress');
      -- Passages of extracted text. No foreign key on purpose: deleting a big file drops its row
      -- at once and a background job purges the passages in small batches (a cascade would hold
      -- the write lock for seconds); retrieval only reads passages of existing, completed files.
      -- fkey ('f' || file_id) is indexed in its own column so a search scoped to some files is
      -- one FTS5 query, 'fkey : (f1 OR f2) AND text : (...)', that seeks instead of ranking all.
      CREATE TABLE file_passages (
        id INTEGER PRIMARY KEY,
        file_id INTEGER NOT NULL,
        ordinal INTEGER NOT NULL,
        text TEXT NOT NULL,
        fkey TEXT GENERATED ALWAYS AS ('f' || file_id) VIRTUAL
      );
      CREATE INDEX file_passages_file ON file_passages(file_id, ordinal);
      CREATE VIRTUAL TABLE file_passages_fts USING fts5(text, fkey, content='file_passages', content_rowid='id', tokenize='unicode61 remove_diacritics 2');
      CREATE TRIGGER file_passages_ai AFTER INSERT ON file_passages BEGIN
        INSERT INTO file_passages_fts(rowid, text, fkey) VALUES (new.id, new.text, 'f' || new.file_id);
      END;
      CREATE TRIGGER file_passages_ad AFTER DELETE ON file_passages BEGIN
        INSERT INTO file_passages_fts(file_passages_fts, rowid, text, fkey) VALUES ('delete', old.id, old.text, 'f' || old.file_id);
      END;
      CREATE TABLE agent_files (
        agent_id INTEGER NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
        file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (agent_id, file_id)
      ) WITHOUT ROWID;
      CREATE INDEX agent_files_file ON agent_files(file_id);
    `);
  },
};

import type { Migration } from '../migrate.js';

export const m001Core: Migration = {
  version: 1,
  name: 'core',
  up(db) {
    db.exec(`
      CREATE TABLE users (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        selected_workspace_id INTEGER,
        created_at INTEGER NOT NULL
      );
      CREATE TABLE workspaces (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE TABLE workspace_members (
        workspace_id INTEGER NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        role TEXT NOT NULL DEFAULT 'owner',
        PRIMARY KEY (workspace_id, user_id)
      );
      CREATE TABLE api_keys (
        id INTEGER PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        prefix TEXT NOT NULL,
        key_hash TEXT NOT NULL UNIQUE,
        created_at INTEGER NOT NULL,
        last_used_at INTEGER,
        revoked_at INTEGER
      );
      CREATE TABLE templates (
        id TEXT PRIMARY KEY,
        title TEXT NOT NULL,
        description TEXT NOT NULL DEFAULT '',
        long_description TEXT,
        type TEXT NOT NULL CHECK (type IN ('chat','image','text','video')),
        questions TEXT NOT NULL DEFAULT '[]',
        instructions TEXT NOT NULL DEFAULT '',
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE TABLE agents (
        id INTEGER PRIMARY KEY,
        workspace_id INTEGER NOT NULL REFERENCES workspaces(id),
        template_id TEXT REFERENCES templates(id) ON DELETE SET NULL,
        title TEXT NOT NULL,
        description TEXT,
        long_description TEXT,
        visibility TEXT NOT NULL DEFAULT 'public',
        slug TEXT NOT NULL UNIQUE,
        active INTEGER NOT NULL DEFAULT 1,
        type TEXT NOT NULL CHECK (type IN ('chat','image','text','video')),
        questions TEXT NOT NULL DEFAULT '[]',
        instructions TEXT NOT NULL DEFAULT '',
        created_by INTEGER NOT NULL REFERENCES users(id),
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX agents_workspace ON agents(workspace_id, id);
      CREATE TABLE memory_collections (
        id INTEGER PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        UNIQUE (user_id, name)
      );
      CREATE TABLE memories (
        id INTEGER PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        collection_id INTEGER NOT NULL REFERENCES memory_collections(id),
        memory TEXT NOT NULL,
        credits REAL NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX memories_user ON memories(user_id, id);
      CREATE INDEX memories_collection ON memories(collection_id, id);
      -- Full-text index of memories (execution context, ext q); kept in step by triggers.
      CREATE VIRTUAL TABLE memories_fts USING fts5(memory, content='memories', content_rowid='id', tokenize='unicode61 remove_diacritics 2');
      CREATE TRIGGER memories_ai AFTER INSERT ON memories BEGIN
        INSERT INTO memories_fts(rowid, memory) VALUES (new.id, new.memory);
      END;
      CREATE TRIGGER memories_ad AFTER DELETE ON memories BEGIN
        INSERT INTO memories_fts(memories_fts, rowid, memory) VALUES ('delete', old.id, old.memory);
      END;
      CREATE TRIGGER memories_au AFTER UPDATE OF memory ON memories BEGIN
        INSERT INTO memories_fts(memories_fts, rowid, memory) VALUES ('delete', old.id, old.memory);
        INSERT INTO memories_fts(rowid, memory) VALUES (new.id, new.memory);
      END;
      -- Row counts kept by triggers so list totals stay O(1) at any table size.
      CREATE TABLE memory_counts (
        user_id INTEGER NOT NULL,
        collection_id INTEGER NOT NULL,
        n INTEGER NOT NULL,
        PRIMARY KEY (user_id, collection_id)
      ) WITHOUT ROWID;
      CREATE TRIGGER memory_counts_ai AFTER INSERT ON memories BEGIN
        INSERT INTO memory_counts(user_id, collection_id, n) VALUES (new.user_id, new.collection_id, 1)
          ON CONFLICT(user_id, collection_id) DO UPDATE SET n = n + 1;
      END;
      CREATE TRIGGER memory_counts_ad AFTER DELETE ON memories BEGIN
        UPDATE memory_counts SET n = n - 1 WHERE user_id = old.user_id AND collection_id = old.collection_id;
      END;
      CREATE TRIGGER memory_counts_au AFTER UPDATE OF collection_id ON memories BEGIN
        UPDATE memory_counts SET n = n - 1 WHERE user_id = old.user_id AND collection_id = old.collection_id;
        INSERT INTO memory_counts(user_id, collection_id, n) VALUES (new.user_id, new.collection_id, 1)
          ON CONFLICT(user_id, collection_id) DO UPDATE SET n = n + 1;
      END;
      CREATE TABLE webhooks (
        id INTEGER PRIMARY KEY,
        agent_id INTEGER NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        url TEXT NOT NULL,
        method TEXT NOT NULL DEFAULT 'POST',
        status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active','inactive')),
        secret TEXT NOT NULL,
        success_count INTEGER NOT NULL DEFAULT 0,
        failure_count INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        deleted_at INTEGER
      );
      CREATE INDEX webhooks_agent ON webhooks(agent_id, id);
      CREATE INDEX webhooks_user ON webhooks(user_id, id);
      -- Durable background work (file processing, webhook deliveries): a restart resumes it.
      CREATE TABLE jobs (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL,
        payload TEXT NOT NULL DEFAULT '{}',
        state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending','running','done','failed')),
        attempts INTEGER NOT NULL DEFAULT 0,
        max_attempts INTEGER NOT NULL DEFAULT 1,
        run_at INTEGER NOT NULL,
        lane TEXT,
        last_error TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX jobs_due ON jobs(state, run_at);
      CREATE INDEX jobs_lane ON jobs(lane, id) WHERE lane IS NOT NULL;
      CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      );
    `);
  },
};

import type { Migration } from '../migrate.js';

/**
 * Sessions people keep: `session_settings` holds a session's pin, archive and its own
 * instructions and options (JSON). `session_search` and `session_title_search` index what
 * session search matches (each execution's input and output, the titles people gave) with the
 * trigram tokenizer folding case and diacritics, so "manutencao" finds "manutenção" and "REVISÃO"
 * finds "revisão" as substrings. Existing conversations are indexed here; triggers keep both
 * indexes current (an execution's text once when it is created, again when it ends: streamed
 * progress is not re-indexed, which would cost the whole text on every flush).
 */
export const m017SessionSettingsSearch: Migration = {
  version: 17,
  name: 'session settings and accent-folded session search',
  up(db) {
    db.exec(`
      CREATE TABLE session_settings (
        user_id INTEGER NOT NULL,
        root_id INTEGER NOT NULL,
        pinned_at INTEGER,
        archived_at INTEGER,
        instructions TEXT,
        options TEXT NOT NULL DEFAULT '{}',
        PRIMARY KEY (user_id, root_id)
      );

      CREATE VIRTUAL TABLE session_search USING fts5(body, tokenize = 'trigram remove_diacritics 1');
      INSERT INTO session_search(rowid, body) SELECT id, input || char(10) || output FROM executions;
      CREATE TRIGGER session_search_insert AFTER INSERT ON executions
      BEGIN
        INSERT INTO session_search(rowid, body) VALUES (NEW.id, NEW.input || char(10) || NEW.output);
      END;
      CREATE TRIGGER session_search_finish AFTER UPDATE OF status, output ON executions WHEN NEW.status IN ('succeeded', 'failed', 'canceled')
      BEGIN
        DELETE FROM session_search WHERE rowid = NEW.id;
        INSERT INTO session_search(rowid, body) VALUES (NEW.id, NEW.input || char(10) || NEW.output);
      END;
      CREATE TRIGGER session_search_delete AFTER DELETE ON executions
      BEGIN
        DELETE FROM session_search WHERE rowid = OLD.id;
      END;

      CREATE VIRTUAL TABLE session_title_search USING fts5(title, tokenize = 'trigram remove_diacritics 1');
      INSERT INTO session_title_search(rowid, title) SELECT rowid, title FROM session_titles;
      CREATE TRIGGER session_title_search_insert AFTER INSERT ON session_titles
      BEGIN
        INSERT INTO session_title_search(rowid, title) VALUES (NEW.rowid, NEW.title);
      END;
      CREATE TRIGGER session_title_search_update AFTER UPDATE OF title ON session_titles
      BEGIN
        DELETE FROM session_title_search WHERE rowid = OLD.rowid;
        INSERT INTO session_title_search(rowid, title) VALUES (NEW.rowid, NEW.title);
      END;
      CREATE TRIGGER session_title_search_delete AFTER DELETE ON session_titles
      BEGIN
        DELETE FROM session_title_search WHERE rowid = OLD.rowid;
      END;
    `);
  },
};

/**
 * `npm audit --omit=dev`: no high or critical advisory in production dependencies. When the
 * registry refuses the advisory endpoint (this workplace's registry answers 405) the audit did
 * not run: the test is then reported as SKIPPED with npm's reason, never as passed. Set
 * AGENT_DESK_REQUIRE_AUDIT=1 to make that a failure instead (e.g. on a machine with the public registry).
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { limit } from '../fixtures/until.js';

interface AuditReport {
  metadata?: { vulnerabilities?: Record<string, number> };
  vulnerabilities?: Record<string, { severity: string; via: unknown[] }>;
  message?: string;
  error?: { summary?: string; detail?: string };
}

describe('production dependencies', () => {
  it('npm audit --omit=dev finds no high or critical advisory', (ctx) => {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const r = spawnSync(npm, ['audit', '--omit=dev', '--json'], { encoding: 'utf8', timeout: limit(90_000), env: { ...process.env, npm_config_fund: 'false' } });
    if (r.error) throw new Error(`npm audit could not run: ${r.error.message}`);
    let report: AuditReport;
    try {
      report = JSON.parse(r.stdout) as AuditReport;
    } catch {
      throw new Error(`npm audit gave no report (exit ${r.status}): ${(r.stderr || r.stdout).trim().slice(0, 500)}`);
    }
    if (!report.metadata?.vulnerabilities) {
      const why = report.message ?? report.error?.summary ?? (r.stderr.trim() || 'no metadata in the report');
      const message = `npm audit did not audit anything: the advisory endpoint could not be used (${why}).`;
      if (process.env.AGENT_DESK_REQUIRE_AUDIT === '1') throw new Error(`${message} This is not a pass.`);
      console.warn(`[audit] SKIPPED: ${message}`);
      ctx.skip(message);
      return;
    }
    const v = report.metadata.vulnerabilities;
    const bad = Object.entries(report.vulnerabilities ?? {})
      .filter(([, x]) => x.severity === 'high' || x.severity === 'critical')
      .map(([name, x]) => `${name} (${x.severity})`);
    expect(bad, `high/critical advisories: ${bad.join(', ')}`).toEqual([]);
    expect((v.high ?? 0) + (v.critical ?? 0)).toBe(0);
  }, limit(120_000));
});

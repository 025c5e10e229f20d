/**
 * `npm audit --omit=dev`: no high or critical advisory in production dependencies. When the
 * audit endpoint cannot be reached this fails with npm's own reason: an audit that did not run
 * proves nothing, so it must never count as a pass.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

interface AuditReport {
  metadata?: { vulnerabilities?: Record<string, number> };
  vulnerabilities?: Record<string, { severity: string; via: unknown[] }>;
  message?: string;
  error?: { summary?: string; detail?: string };
}

describe('production dependencies', () => {
  it('npm audit --omit=dev finds no high or critical advisory', () => {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const r = spawnSync(npm, ['audit', '--omit=dev', '--json'], { encoding: 'utf8', timeout: 90_000, env: { ...process.env, npm_config_fund: 'false' } });
    if (r.error) throw new Error(`npm audit could not run: ${r.error.message}`);
    let report: AuditReport;
    try {
      report = JSON.parse(r.stdout) as AuditReport;
    } catch {
      throw new Error(`npm audit gave no report (exit ${r.status}): ${(r.stderr || r.stdout).trim().slice(0, 500)}`);
    }
    if (!report.metadata?.vulnerabilities) {
      const why = report.message ?? report.error?.summary ?? (r.stderr.trim() || 'no metadata in the report');
      throw new Error(`npm audit did not audit anything: the advisory endpoint could not be used (${why}). This is not a pass.`);
    }
    const v = report.metadata.vulnerabilities;
    const bad = Object.entries(report.vulnerabilities ?? {})
      .filter(([, x]) => x.severity === 'high' || x.severity === 'critical')
      .map(([name, x]) => `${name} (${x.severity})`);
    expect(bad, `high/critical advisories: ${bad.join(', ')}`).toEqual([]);
    expect((v.high ?? 0) + (v.critical ?? 0)).toBe(0);
  }, 120_000);
});

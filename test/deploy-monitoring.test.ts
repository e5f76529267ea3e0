/**
 * deploy/: Prometheus's configuration, the alert rules and their unit tests, checked by
 * promtool (Debian's `prometheus` package; .ci/run installs it), and the Grafana dashboard's
 * shape. That every metric they name is really served is shown against live processes in
 * test/metrics-processes.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ALERT_RULES,
  ALERT_TESTS,
  PROMETHEUS_CONFIG,
  alertRules,
  alertTestCoverage,
  dashboardPanels,
  metricNames,
  monitoringExpressions,
} from './monitoring.ts';

function promtool(...args: string[]): string {
  try {
    return execFileSync('promtool', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`promtool ${args.join(' ')} failed:\n${failed.stdout ?? ''}${failed.stderr ?? failed.message}`);
  }
}

describe('Prometheus configuration and alert rules', () => {
  it('passes promtool check config, with the token file where docker-compose mounts it', () => {
    // The compose file mounts the METRICS_TOKEN secret beside the config; promtool insists the file exists.
    const dir = mkdtempSync(join(tmpdir(), 'wallet-prometheus-'));
    try {
      copyFileSync(PROMETHEUS_CONFIG, join(dir, 'prometheus.yml'));
      copyFileSync(ALERT_RULES, join(dir, 'alerts.yml'));
      writeFileSync(join(dir, 'metrics_token'), 'metrics-token-for-the-check-0123456789\n');
      expect(promtool('check', 'config', join(dir, 'prometheus.yml'))).toMatch(/SUCCESS: .*is valid prometheus config/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('passes promtool check rules', () => {
    expect(promtool('check', 'rules', ALERT_RULES)).toContain(`SUCCESS: ${alertRules().length} rules found`);
  });

  it('passes promtool test rules, with a case per alert that fires and one that stays quiet', () => {
    expect(promtool('test', 'rules', ALERT_TESTS)).toContain('SUCCESS');
    const coverage = alertTestCoverage();
    for (const rule of alertRules()) expect(coverage.get(rule.alert), rule.alert).toEqual({ fires: true, quiet: true });
    const names = alertRules().map((rule) => rule.alert);
    for (const wanted of [
      'WalletProjectionLagging',
      'WalletMailJobsFailing',
      'WalletLedgerVerifyDifferences',
      'WalletHttp5xxRate',
      'WalletReplicationLagHigh',
      'WalletNoSynchronousStandby',
      'WalletWalArchiveStale',
      'WalletBackupStale',
      'WalletFailoverHappened',
    ])
      expect(names).toContain(wanted);
  });
});

describe('Grafana dashboard', () => {
  it('has a query on every panel, unique panel ids, and covers what operators watch', () => {
    const panels = dashboardPanels();
    expect(new Set(panels.map((panel) => panel.id)).size).toBe(panels.length);
    for (const panel of panels.filter((candidate) => candidate.type !== 'row')) {
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
      for (const target of panel.targets ?? []) expect(metricNames(target.expr ?? ''), panel.title).not.toEqual([]);
    }
    const used = new Set(monitoringExpressions().flatMap(metricNames));
    for (const name of [
      'wallet_http_request_duration_seconds_bucket',
      'wallet_ledger_append_duration_seconds_bucket',
      'wallet_ledger_append_batch_size_bucket',
      'wallet_command_failures_total',
      'wallet_projection_lag_seconds',
      'wallet_projection_lag_events',
      'wallet_job_queue_depth',
      'wallet_job_queue_failed',
      'wallet_pin_pool_queue_depth',
      'wallet_read_after_reply_timeouts_total',
      'wallet_ledger_verify_differences',
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_p99_seconds',
      'nodejs_gc_duration_seconds_sum',
    ])
      expect(used, name).toContain(name);
  });

  it('reads metric names out of expressions, not labels or functions', () => {
    expect(
      metricNames(
        'histogram_quantile(0.95, sum by (le, route) (rate(wallet_x_bucket{route="wallet_not_a_metric"}[5m])))',
      ),
    ).toEqual(['wallet_x_bucket']);
  });
});

/**
 * The monitoring files of deploy/, read for the tests: the alert rules and their unit tests,
 * the Grafana dashboard's panel queries, and the metric names those expressions use (so a
 * test can hold them against real scrapes of the API and the worker).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ROOT } from './processes.ts';

export const DEPLOY_DIR = join(ROOT, 'deploy');
export const PROMETHEUS_CONFIG = join(DEPLOY_DIR, 'prometheus.yml');
export const ALERT_RULES = join(DEPLOY_DIR, 'alerts.yml');
export const ALERT_TESTS = join(DEPLOY_DIR, 'alerts.test.yml');
export const DASHBOARD = join(DEPLOY_DIR, 'grafana', 'wallet-dashboard.json');

export interface AlertRule {
  alert: string;
  expr: string;
}

export function alertRules(): AlertRule[] {
  const file = parse(readFileSync(ALERT_RULES, 'utf8')) as { groups: { rules: AlertRule[] }[] };
  return file.groups.flatMap((group) => group.rules);
}

/** Per alert name, whether some test case expects it to fire (and some expects it quiet). */
export function alertTestCoverage(): Map<string, { fires: boolean; quiet: boolean }> {
  const file = parse(readFileSync(ALERT_TESTS, 'utf8')) as {
    tests: { alert_rule_test?: { alertname: string; exp_alerts?: unknown[] }[] }[];
  };
  const coverage = new Map<string, { fires: boolean; quiet: boolean }>();
  for (const check of file.tests.flatMap((test) => test.alert_rule_test ?? [])) {
    const entry = coverage.get(check.alertname) ?? { fires: false, quiet: false };
    if ((check.exp_alerts ?? []).length > 0) entry.fires = true;
    else entry.quiet = true;
    coverage.set(check.alertname, entry);
  }
  return coverage;
}

export interface DashboardPanel {
  id: number;
  type: string;
  title: string;
  targets?: { expr?: string }[];
}

export function dashboardPanels(): DashboardPanel[] {
  const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as { panels: DashboardPanel[] };
  return dashboard.panels;
}

/** Every PromQL expression of the dashboard's panels and of the alert rules. */
export function monitoringExpressions(): string[] {
  const panels = dashboardPanels().flatMap((panel) => (panel.targets ?? []).map((target) => target.expr ?? ''));
  return [...panels, ...alertRules().map((rule) => rule.expr)];
}

/**
 * The metric names an expression selects: our series (wallet_*) and the default process
 * metrics (process_*, nodejs_*). `up` is Prometheus's own, never in a scrape. Label names and
 * values cannot match: they are inside braces or quotes, which are removed first.
 */
export function metricNames(expr: string): string[] {
  const bare = expr.replace(/"[^"]*"/g, '""').replace(/\{[^{}]*\}/g, '{}');
  return [...new Set(bare.match(/\b(?:wallet|process|nodejs)_[A-Za-z0-9_]+/g) ?? [])];
}

/**
 * Whether a scrape serves `name`: a sample of it, or its family declared (`# TYPE`) - a
 * labelled series nothing has touched yet, or a histogram's _bucket/_sum/_count before its
 * first observation.
 */
export function scrapeHas(scrape: string, name: string): boolean {
  if (new RegExp(`^${name}[{ ]`, 'm').test(scrape)) return true;
  if (new RegExp(`^# TYPE ${name} `, 'm').test(scrape)) return true;
  const family = name.replace(/_(bucket|sum|count)$/, '');
  return family !== name && new RegExp(`^# TYPE ${family} (histogram|summary)$`, 'm').test(scrape);
}

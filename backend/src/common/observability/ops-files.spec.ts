import * as fs from 'node:fs';
import * as path from 'node:path';
import { load } from 'js-yaml';
import { REPO_ROOT } from '../../bootstrap/static-ui';
import { Metrics } from './metrics.service';
import type { AppConfig } from '../../config/app-config';

/**
 * The alert rules (deploy/prometheus/alerts.yml) and the Grafana dashboard (deploy/grafana/fitting-room.json)
 * name metrics and labels by hand: this reads both and checks each name against what the app
 * registers, so that renaming a metric or a label without them fails here instead of silencing an
 * alert at 3 am.
 */

/** Labels Prometheus adds to every series it scrapes (the target's), and the app's own default label. */
const TARGET_LABELS = ['job', 'instance', 'role'];
/** Series Prometheus makes itself for each target. */
const PROMETHEUS_SERIES: Record<string, string[]> = { up: ['job', 'instance'] };
const KEYWORDS = new Set([
  'and',
  'or',
  'unless',
  'bool',
  'offset',
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'inf',
  'nan',
]);

/** Every series name the registry serves, with the labels each may carry. */
function registeredSeries(metrics: Metrics): Map<string, string[]> {
  const series = new Map<string, string[]>(Object.entries(PROMETHEUS_SERIES));
  for (const metric of metrics.registry.getMetricsAsArray()) {
    const { name, type, labelNames = [] } = metric as unknown as { name: string; type: string; labelNames?: string[] };
    const labels = [...labelNames, ...TARGET_LABELS];
    if (type === 'histogram') {
      series.set(`${name}_bucket`, [...labels, 'le']);
      series.set(`${name}_sum`, labels);
      series.set(`${name}_count`, labels);
    } else if (type === 'summary') {
      series.set(name, [...labels, 'quantile']);
      series.set(`${name}_sum`, labels);
      series.set(`${name}_count`, labels);
    } else {
      series.set(name, labels);
    }
  }
  return series;
}

interface Reference {
  metric: string;
  /** label names its matchers use */
  labels: string[];
}

/** The metrics a PromQL expression reads (with the labels its matchers name), and the labels it groups by. */
export function promqlNames(expr: string): { refs: Reference[]; grouping: string[] } {
  const refs: Reference[] = [];
  const grouping: string[] = [];
  let rest = expr.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  rest = rest.replace(/([a-zA-Z_:][a-zA-Z0-9_:]*)?\s*\{([^}]*)\}/g, (_all, name: string | undefined, matchers: string) => {
    const labels = [...matchers.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)\s*(?:=~|!~|!=|=)/g)].map((m) => m[1]);
    if (name && !KEYWORDS.has(name)) refs.push({ metric: name, labels });
    return ' ';
  });
  rest = rest.replace(/\[[^\]]*\]/g, ' ');
  rest = rest.replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\(([^)]*)\)/g, (_all, labels: string) => {
    grouping.push(
      ...labels
        .split(',')
        .map((l) => l.trim())
        .filter(Boolean),
    );
    return ' ';
  });
  rest = rest.replace(/\b\d+(?:\.\d+)?(?:e[+-]?\d+)?\b/gi, ' ');
  for (const m of rest.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)\s*(\()?/g)) {
    if (m[2] || KEYWORDS.has(m[1].toLowerCase())) continue; // a function, or a keyword
    refs.push({ metric: m[1], labels: [] });
  }
  return { refs, grouping };
}

interface AlertRule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

interface Panel {
  title: string;
  type: string;
  targets?: { expr: string }[];
  panels?: Panel[];
}

describe('alert rules and dashboard against the metrics the app registers', () => {
  const metrics = new Metrics({ dataDir: REPO_ROOT, metrics: { port: 9464 } } as unknown as AppConfig, 'worker');
  metrics.onModuleInit(); // the process metrics are registered where metrics are served
  afterAll(() => metrics.onApplicationShutdown());
  const series = registeredSeries(metrics);

  const rulesFile = load(fs.readFileSync(path.join(REPO_ROOT, 'deploy', 'prometheus', 'alerts.yml'), 'utf8')) as {
    groups: { name: string; rules: AlertRule[] }[];
  };
  const rules = rulesFile.groups.flatMap((g) => g.rules);
  const dashboard = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'deploy', 'grafana', 'fitting-room.json'), 'utf8')) as {
    uid: string;
    panels: Panel[];
    templating: { list: { name: string }[] };
  };
  const panels = dashboard.panels.flatMap((p) => [p, ...(p.panels ?? [])]);
  const queries = panels.flatMap((p) => (p.targets ?? []).map((t) => ({ panel: p.title, expr: t.expr })));

  /** What an expression names that the app does not register: metrics, their labels, grouping labels. */
  function unknownNames(expr: string): string[] {
    const { refs, grouping } = promqlNames(expr);
    const wrong: string[] = [];
    for (const ref of refs) {
      const labels = series.get(ref.metric);
      if (!labels) wrong.push(`metric ${ref.metric}`);
      else for (const label of ref.labels) if (!labels.includes(label)) wrong.push(`label ${label} of ${ref.metric}`);
    }
    const known = new Set(refs.flatMap((r) => series.get(r.metric) ?? []));
    for (const label of grouping) if (!known.has(label)) wrong.push(`grouping label ${label}`);
    return wrong;
  }

  it('reads the names from PromQL as Prometheus would', () => {
    expect(
      promqlNames('histogram_quantile(0.95, sum by (provider, le) (rate(fr_x_bucket{outcome="ok",a=~"b|c"}[10m]))) > 1.7e9 and up == 1'),
    ).toEqual({
      refs: [
        { metric: 'fr_x_bucket', labels: ['outcome', 'a'] },
        { metric: 'up', labels: [] },
      ],
      grouping: ['provider', 'le'],
    });
    expect(promqlNames('sum(increase(fr_safety_pauses_total[1h])) > 5').refs).toEqual([{ metric: 'fr_safety_pauses_total', labels: [] }]);
  });

  it('registers no label that Prometheus gives each target (job, instance): it would be renamed exported_*', () => {
    for (const metric of metrics.registry.getMetricsAsArray()) {
      const { name, labelNames = [] } = metric as unknown as { name: string; labelNames?: string[] };
      expect({ name, clashes: labelNames.filter((l) => l === 'job' || l === 'instance') }).toEqual({ name, clashes: [] });
    }
  });

  it('alerts on errors, latency, queue age, vendor failures, Stripe events failing, missing workers and disk', () => {
    expect(rules.map((r) => r.alert)).toEqual(
      expect.arrayContaining([
        'FittingRoomHighErrorRate',
        'FittingRoomSlowRequests',
        'FittingRoomQueueJobsWaiting',
        'FittingRoomVendorFailing',
        'FittingRoomStripeEventsFailing',
        'FittingRoomWorkersMissing',
        'FittingRoomDiskFilling',
      ]),
    );
    expect(new Set(rules.map((r) => r.alert)).size).toBe(rules.length);
    for (const rule of rules) {
      expect({ alert: rule.alert, for: /^\d+[smh]$/.test(rule.for ?? '') }).toEqual({ alert: rule.alert, for: true });
      expect({ alert: rule.alert, severity: rule.labels?.severity }).toEqual({
        alert: rule.alert,
        severity: expect.stringMatching(/^(critical|warning)$/),
      });
      expect(rule.annotations?.summary).toEqual(expect.any(String));
    }
  });

  it('names in every alert only metrics and labels the app registers', () => {
    expect(rules.length).toBeGreaterThan(7);
    for (const rule of rules) {
      expect(promqlNames(rule.expr).refs.length).toBeGreaterThan(0);
      expect({ alert: rule.alert, unknown: unknownNames(rule.expr) }).toEqual({ alert: rule.alert, unknown: [] });
    }
  });

  it('names in every dashboard query only metrics and labels the app registers', () => {
    expect(dashboard.uid).toBe('fitting-room');
    expect(queries.length).toBeGreaterThan(20);
    for (const q of queries) {
      expect(promqlNames(q.expr).refs.length).toBeGreaterThan(0);
      expect({ panel: q.panel, unknown: unknownNames(q.expr) }).toEqual({ panel: q.panel, unknown: [] });
    }
    // its variables are declared
    const variables = new Set(dashboard.templating.list.map((v) => v.name));
    for (const q of queries) for (const [, v] of q.expr.matchAll(/\$([a-z_]+)/g)) if (!v.startsWith('__')) expect(variables).toContain(v);
  });

  it("shows each of the app's own metrics on the dashboard", () => {
    const shown = new Set(queries.flatMap((q) => promqlNames(q.expr).refs.map((r) => r.metric.replace(/_(bucket|sum|count)$/, ''))));
    const own = metrics.registry
      .getMetricsAsArray()
      .map((m) => m.name)
      .filter((name) => name.startsWith('fr_') || name.startsWith('http_'));
    expect(own.length).toBeGreaterThan(10);
    expect(own.filter((name) => !shown.has(name))).toEqual([]);
  });
});

/**
 * Reads the Prometheus text exposition format (https://prometheus.io/docs/instrumenting/exposition_formats/#text-based-format):
 * `# TYPE <family> <type>` lines and samples `name{label="value",...} value`.
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Scrape {
  /** family name -> type (counter, gauge, histogram, summary) */
  families: Map<string, string>;
  samples: Sample[];
  /** the value of the one sample with this name whose labels include `labels` (undefined: none) */
  value(name: string, labels?: Record<string, string>): number | undefined;
  /** every sample of a name whose labels include `labels` */
  all(name: string, labels?: Record<string, string>): Sample[];
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s+(\S+)(\s+\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function parsePrometheusText(text: string): Scrape {
  const families = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('# TYPE ')) {
      const [, , name, type] = line.split(' ');
      families.set(name, type);
      continue;
    }
    if (line.startsWith('#') || line.trim() === '') continue;
    const m = SAMPLE.exec(line.trim());
    if (!m) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[3] ?? '').matchAll(LABEL)) labels[l[1]] = l[2].replace(/\\(.)/g, '$1');
    samples.push({ name: m[1], labels, value: Number(m[4]) });
  }
  const matches = (s: Sample, name: string, labels: Record<string, string>) =>
    s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v);
  return {
    families,
    samples,
    all: (name, labels = {}) => samples.filter((s) => matches(s, name, labels)),
    value(name, labels = {}) {
      const found = samples.filter((s) => matches(s, name, labels));
      if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
      return found[0]?.value;
    },
  };
}

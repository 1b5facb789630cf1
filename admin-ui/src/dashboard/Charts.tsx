import { Box, Card, CardContent, CardHeader, Grid, Stack, Typography, useTheme } from '@mui/material';
import { useLayoutEffect, useRef, useState } from 'react';
import type { AdminStatsDto as AdminStats } from '@fitting-room/api-client';

/**
 * Small hand-drawn SVG charts (no chart library: three bar charts do not need one, and the
 * console's bundle stays small). Loaded lazily by the dashboard. Each bar carries a <title> for
 * its exact figures, and each chart an accessible name.
 */

interface Series {
  key: string;
  label: string;
  color: string;
}

interface StackedBarsProps {
  title: string;
  rows: { label: string; values: Record<string, number> }[];
  series: Series[];
  /** drawing width in SVG units until the shown width is measured */
  width?: number;
}

const WIDTH = 640;
/** the least room a day's label needs, in pixels: fewer labels on a phone, never overlapping */
const LABEL_ROOM = 56;

/**
 * The width the chart is shown at, measured (and followed on resize): the drawing uses it as its
 * own width, so its text keeps its size at 390 px as at 1440 px instead of shrinking with the SVG.
 */
function useShownWidth(fallback: number) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(fallback);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setWidth((current) => Math.round(el.clientWidth) || current);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}
const HEIGHT = 200;
const PAD = { top: 10, right: 8, bottom: 28, left: 40 };

function Legend({ series }: { series: Series[] }) {
  return (
    <Stack direction="row" spacing={2} useFlexGap sx={{ mt: 1, flexWrap: 'wrap' }}>
      {series.map((s) => (
        <Stack key={s.key} direction="row" spacing={0.75} sx={{ alignItems: 'center' }}>
          <Box sx={{ width: 12, height: 12, bgcolor: s.color, borderRadius: 0.5 }} />
          <Typography variant="caption">{s.label}</Typography>
        </Stack>
      ))}
    </Stack>
  );
}

/** Vertical bars, one per row (a day), stacked by series. */
export function StackedBars({ title, rows, series, width: fallback = WIDTH }: StackedBarsProps) {
  const theme = useTheme();
  const { ref, width } = useShownWidth(fallback);
  const totals = rows.map((row) => series.reduce((sum, s) => sum + (row.values[s.key] ?? 0), 0));
  const max = Math.max(1, ...totals);
  const plotW = width - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const step = rows.length ? plotW / rows.length : plotW;
  const barW = Math.max(2, step * 0.7);
  const y = (v: number) => PAD.top + plotH - (v / max) * plotH;
  const labelEvery = Math.max(1, Math.ceil(rows.length / 6), Math.ceil(LABEL_ROOM / step));
  const axis = theme.palette.text.secondary;

  return (
    <Box ref={ref}>
      <Box
        component="svg"
        viewBox={`0 0 ${width} ${HEIGHT}`}
        role="img"
        aria-label={title}
        sx={{ width: '100%', height: 'auto', display: 'block' }}
      >
        <line x1={PAD.left} x2={width - PAD.right} y1={y(0)} y2={y(0)} stroke={axis} strokeWidth={0.5} />
        <line x1={PAD.left} x2={width - PAD.right} y1={y(max)} y2={y(max)} stroke={axis} strokeWidth={0.25} strokeDasharray="3 3" />
        <text x={PAD.left - 6} y={y(max) + 4} textAnchor="end" fontSize={11} fill={axis}>
          {max}
        </text>
        <text x={PAD.left - 6} y={y(0) + 4} textAnchor="end" fontSize={11} fill={axis}>
          0
        </text>
        {rows.map((row, i) => {
          const x = PAD.left + i * step + (step - barW) / 2;
          let base = 0;
          const detail = series.map((s) => `${s.label}: ${row.values[s.key] ?? 0}`).join(', ');
          return (
            <g key={row.label}>
              <title>{`${row.label} — ${detail}`}</title>
              {series.map((s) => {
                const v = row.values[s.key] ?? 0;
                const top = y(base + v);
                const h = y(base) - top;
                base += v;
                return v > 0 ? <rect key={s.key} x={x} y={top} width={barW} height={h} fill={s.color} rx={1} /> : null;
              })}
              {/* an invisible full-height hit area so the tooltip also works on empty days */}
              <rect x={PAD.left + i * step} y={PAD.top} width={step} height={plotH} fill="transparent" />
              {i % labelEvery === 0 && (
                <text x={x + barW / 2} y={HEIGHT - 8} textAnchor="middle" fontSize={11} fill={axis}>
                  {row.label.slice(5)}
                </text>
              )}
            </g>
          );
        })}
      </Box>
      {series.length > 1 && <Legend series={series} />}
    </Box>
  );
}

/** Horizontal bars: one per category (the tier distribution). */
export function HorizontalBars({ title, rows, color }: { title: string; rows: { label: string; value: number }[]; color: string }) {
  const max = Math.max(1, ...rows.map((r) => r.value));
  const total = rows.reduce((sum, r) => sum + r.value, 0);
  return (
    <Stack spacing={1} role="img" aria-label={title}>
      {rows.map((row) => {
        const share = total ? Math.round((row.value / total) * 1000) / 10 : 0;
        return (
          <Box key={row.label} title={`${row.label}: ${row.value} (${share}%)`}>
            <Stack direction="row" sx={{ justifyContent: 'space-between' }}>
              <Typography variant="body2">{row.label}</Typography>
              <Typography variant="body2" color="text.secondary">
                {row.value} · {share}%
              </Typography>
            </Stack>
            <Box sx={{ height: 10, bgcolor: 'action.hover', borderRadius: 5, overflow: 'hidden' }}>
              <Box sx={{ height: '100%', width: `${(row.value / max) * 100}%`, bgcolor: color, borderRadius: 5 }} />
            </Box>
          </Box>
        );
      })}
    </Stack>
  );
}

function ChartCard({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Card variant="outlined" sx={{ height: '100%' }}>
      <CardHeader title={title} slotProps={{ title: { variant: 'subtitle1', component: 'h2' } }} />
      <CardContent>{children}</CardContent>
    </Card>
  );
}

/** The dashboard's three charts: tier distribution, generations per day, credits spent per day. */
export default function DashboardCharts({ stats, tiers }: { stats: AdminStats; tiers: { id: string; name: string }[] }) {
  const theme = useTheme();
  const distribution: Record<string, number> = { ...stats.tier_distribution };
  const tierIds = tiers.length ? tiers.map((t) => t.id) : Object.keys(distribution);
  return (
    <Grid container spacing={2}>
      <Grid size={{ xs: 12, md: 4 }}>
        <ChartCard title="Tier distribution">
          <HorizontalBars
            title="Users per tier"
            color={theme.palette.primary.main}
            rows={tierIds.map((id) => ({ label: tiers.find((t) => t.id === id)?.name ?? id, value: distribution[id] ?? 0 }))}
          />
        </ChartCard>
      </Grid>
      <Grid size={{ xs: 12, md: 8 }}>
        <ChartCard title="Generations per day (last 30 days)">
          <StackedBars
            title="Successful, failed and cancelled generations per day"
            rows={stats.generations_per_day.map((d) => ({
              label: d.date,
              values: { successful: d.successful, failed: d.failed, cancelled: d.cancelled },
            }))}
            series={[
              { key: 'successful', label: 'Successful', color: theme.palette.success.main },
              { key: 'failed', label: 'Failed', color: theme.palette.error.main },
              { key: 'cancelled', label: 'Cancelled', color: theme.palette.grey[500] },
            ]}
          />
        </ChartCard>
      </Grid>
      <Grid size={12}>
        <ChartCard title="Credits spent per day (last 30 days)">
          <StackedBars
            title="Credits spent per day"
            width={1200}
            rows={stats.credits_spent_per_day.map((d) => ({ label: d.date, values: { credits: d.credits } }))}
            series={[{ key: 'credits', label: 'Credits', color: theme.palette.secondary.main }]}
          />
        </ChartCard>
      </Grid>
    </Grid>
  );
}

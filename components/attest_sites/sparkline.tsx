/**
 * A sparkline drawn by the server as inline SVG: no chart library and no
 * script. The numbers it draws are also in its accessible name and in the
 * tooltip of each bar, so nothing is shown only as a shape.
 */
import { formatCount } from "@/components/format.ts";

const WIDTH = 120;
const HEIGHT = 24;

/** Bars for `values`, the latest at the right end of `slots` places (earlier ones empty until known). */
export function Sparkline({ values, label, starts, slots }: {
  values: number[];
  label: string;
  starts: string[];
  slots: number;
}) {
  const peak = Math.max(1, ...values);
  const total = values.reduce((a, b) => a + b, 0);
  const w = WIDTH / Math.max(slots, values.length);
  const first = Math.max(slots, values.length) - values.length;
  return (
    <svg
      class="spark"
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      width={WIDTH}
      height={HEIGHT}
      role="img"
      aria-label={`${label}: ${formatCount(total)} in all, at most ${
        formatCount(Math.max(0, ...values))
      } in one period`}
    >
      <line class="spark-base" x1={0} y1={HEIGHT - 0.5} x2={WIDTH} y2={HEIGHT - 0.5} />
      {values.map((v, i) => {
        const h = v === 0 ? 0 : Math.max(1, (v / peak) * HEIGHT);
        return (
          <rect key={i} x={(first + i) * w} y={HEIGHT - h} width={Math.max(1, w - 0.5)} height={h}>
            <title>{`${starts[i].slice(11, 16)} ${formatCount(v)}`}</title>
          </rect>
        );
      })}
    </svg>
  );
}

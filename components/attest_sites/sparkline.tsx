/**
 * A sparkline drawn by the server as inline SVG: no chart library and no
 * script. The numbers it draws are also in its accessible name and in the
 * tooltip of each bar, so nothing is shown only as a shape.
 */
import { formatCount } from "@/components/format.ts";

const WIDTH = 120;
const HEIGHT = 24;

export function Sparkline(
  { values, label, starts }: { values: number[]; label: string; starts: string[] },
) {
  const peak = Math.max(1, ...values);
  const total = values.reduce((a, b) => a + b, 0);
  const w = values.length === 0 ? WIDTH : WIDTH / values.length;
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
      {values.map((v, i) => {
        const h = v === 0 ? 0 : Math.max(1, (v / peak) * HEIGHT);
        return (
          <rect key={i} x={i * w} y={HEIGHT - h} width={Math.max(1, w - 0.5)} height={h}>
            <title>{`${starts[i].slice(11, 16)} ${formatCount(v)}`}</title>
          </rect>
        );
      })}
    </svg>
  );
}

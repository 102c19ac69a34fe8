// Time-series charts with uPlot (vendored, loaded as a classic script before the modules run).

const palette = ['#2f6fad', '#d9822b', '#23855a', '#c0392b', '#7a4fbf', '#0f8b8d', '#b7791f', '#5b6776', '#e056a0', '#3c8d2f'];

/**
 * Draws `series` ({label, values}) against `times` (seconds since the epoch, ascending) into
 * `container`, in the browser's zone. Resizes with the container. Answers the uPlot instance.
 */
export function timeChart(container, times, series, { height = 300, bars = false, yLabel, legend = true } = {}) {
  container.replaceChildren();
  const width = Math.max(280, container.clientWidth || 600);
  const opts = {
    width,
    height,
    scales: { x: { time: true } },
    axes: [{}, { label: yLabel, size: 70 }],
    cursor: { focus: { prox: 30 } },
    legend: { show: legend },
    series: [{ label: 'time', value: '{YYYY}-{MM}-{DD} {HH}:{mm}:{ss}' },
      ...series.map((s, i) => ({
        label: s.label,
        stroke: palette[i % palette.length],
        fill: bars ? palette[i % palette.length] + '55' : undefined,
        width: 1.5,
        spanGaps: true,
        paths: bars && window.uPlot.paths.bars ? window.uPlot.paths.bars({ size: [0.8, 40] }) : undefined,
        points: { show: times.length < 200 },
      }))],
  };
  const plot = new window.uPlot(opts, [times, ...series.map((s) => s.values)], container);
  const observer = new ResizeObserver(() => {
    if (!container.isConnected) { observer.disconnect(); plot.destroy(); return; }
    const w = Math.max(280, container.clientWidth);
    if (Math.abs(w - plot.width) > 2) plot.setSize({ width: w, height });
  });
  observer.observe(container);
  return plot;
}

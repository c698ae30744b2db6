import type { LayoutProps } from "@/server/http/define.ts";

/** The HTML document around every dashboard page. */
export default function App({ Component, state }: LayoutProps) {
  const title = state.title ? `${state.title} · Palisade` : "Palisade";
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <title>{title}</title>
        <link rel="stylesheet" href="/static/style.css" />
        <link rel="icon" href="/static/favicon.svg" type="image/svg+xml" />
      </head>
      <body>
        <Component />
      </body>
    </html>
  );
}

import { ErrorSummary } from "@/components/error_summary.tsx";
import { Page } from "@/components/page.tsx";
import { pageRefusal } from "@/components/refusal.ts";
import { page, type PageProps } from "@/server/http/define.ts";
import { define } from "@/server/listeners/admin/context.ts";
import { attachment } from "@/server/http/attachment.ts";

export const meta = define.meta({
  GET: {
    summary: "Download a backup's SQLite file (holds every secret of the store; audited)",
    access: "administrator",
  },
});

export const handler = define.handlers(meta, {
  async GET(ctx) {
    try {
      const file = await ctx.services.backups.download(ctx.params.id, ctx.auth.user.username);
      const opened = await Deno.open(file.path);
      // The service checked the id against [0-9TZ-a-f]: the name is safe.
      return attachment(opened.readable, file.filename, "application/vnd.sqlite3", file.size);
    } catch (err) {
      ctx.state.title = "Download backup";
      const { error, status } = pageRefusal(err);
      return page({ error }, { status });
    }
  },
});

/** Shown only when the file cannot be sent (an unknown id). */
export default function DownloadError({ data }: PageProps<{ error: string }>) {
  return (
    <Page title="Download backup" back={{ href: "/backups", label: "Backups" }}>
      <ErrorSummary message={data.error} />
    </Page>
  );
}

import { z } from "zod";
import { BackupsTable } from "@/components/backups/backups_table.tsx";
import { doneQuery, noticeFor, NOTICES } from "@/components/notices.ts";
import { Page } from "@/components/page.tsx";
import { PostForm } from "@/components/post_form.tsx";
import { pageRefusal } from "@/components/refusal.ts";
import { BACKUPS_EXTERNAL } from "@/lib/backup/external.ts";
import type { BackupManifest } from "@/lib/backup/manifest.ts";
import { ConflictError } from "@/lib/errors.ts";
import { page, type PageProps } from "@/server/http/define.ts";
import { emptyForm } from "@/server/http/form.ts";
import { define, type SignedInContext } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: {
    summary: "Backups page: snapshots of the store (administrators only: they hold every secret)",
    access: "administrator",
    query: z.object({ done: doneQuery(NOTICES.backups) }),
  },
  POST: {
    summary: "Create a backup of the store from the page",
    access: "administrator",
    body: z.object({ _action: z.literal("create") }),
  },
});

interface Data {
  backups: BackupManifest[];
  /** Why this store has no Palisade backups (PostgreSQL: its own tools), or null. */
  external: string | null;
  error: string | null;
  notice: string | null;
}

async function load(ctx: SignedInContext, over: Partial<Data> = {}): Promise<Data> {
  ctx.state.title = "Backups";
  const base = { external: null, error: null, notice: null };
  try {
    return { ...base, backups: await ctx.services.backups.list(), ...over };
  } catch (err) {
    if (!(err instanceof ConflictError && err.code === BACKUPS_EXTERNAL)) throw err;
    return { ...base, ...over, backups: [], external: err.message };
  }
}

export const handler = define.handlers(meta, {
  async GET(ctx) {
    return page(await load(ctx, { notice: noticeFor(NOTICES.backups, ctx.query.done) }));
  },
  async POST(ctx) {
    try {
      await ctx.services.backups.create(ctx.auth.user.username);
      return ctx.redirect("/backups?done=created");
    } catch (err) {
      const { error, status } = pageRefusal(err);
      return page(await load(ctx, { error }), { status });
    }
  },
});

export default function Backups({ data }: PageProps<Data>) {
  return (
    <Page title="Backups" notice={data.notice} error={data.error}>
      {data.external !== null ? <p>{data.external}.</p> : (
        <>
          <p class="muted">
            A backup is a copy of the whole store: private keys, password hashes, tokens. Keep a
            downloaded file as safe as the data directory.
          </p>
          <PostForm form={emptyForm()} action="create" class="row" label="Create a backup">
            <button type="submit" class="primary">Create backup</button>
          </PostForm>
          <BackupsTable backups={data.backups} />
        </>
      )}
    </Page>
  );
}

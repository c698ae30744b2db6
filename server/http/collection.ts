/**
 * The meta of a collection route, the specs' most common shape: GET lists
 * the collection as `{<key>: [item, …]}`, POST creates one member and
 * answers 201 with it.
 */
import { z } from "zod";
import type { Access, ErrorClass } from "./define.ts";
import { Status } from "./status.ts";

export interface CollectionSpec<
  LA extends Access,
  CA extends Access,
  B extends z.ZodType,
  R extends z.ZodType,
> {
  /** The listing's property, e.g. "zones". */
  key: string;
  /** One member as listed. */
  item: z.ZodType;
  list: { summary: string; access: LA };
  create: { summary: string; access: CA; body: B; response: R; errors?: readonly ErrorClass[] };
}

/** `meta` for `define.meta()`: the listing and the creation, with their schemas. */
export function collection<
  const LA extends Access,
  const CA extends Access,
  B extends z.ZodType,
  R extends z.ZodType,
>(spec: CollectionSpec<LA, CA, B, R>) {
  return {
    GET: {
      summary: spec.list.summary,
      access: spec.list.access,
      response: z.object({ [spec.key]: z.array(spec.item) }),
    },
    POST: { ...spec.create, status: Status.Created },
  };
}

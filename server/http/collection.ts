/**
 * The meta of the specs' two most common route shapes: a collection (GET
 * lists it as `{<key>: [item, …]}`, with `total` and `next_cursor` when it
 * pages, POST creates one member and answers 201
 * with it) and a member (GET, PUT, DELETE; or GET and DELETE alone).
 */
import { z } from "zod";
import { OkSchema } from "../../lib/auth/schema.ts";
import { PageQuery, pageResponseFields } from "../../lib/paging.ts";
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
  /**
   * The listing pages (docs/api.md, "Pagination"): it takes limit, cursor and
   * offset and answers total and next_cursor beside its items.
   */
  paged?: boolean;
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
      ...(spec.paged ? { query: PageQuery } : {}),
      response: z.object({
        [spec.key]: z.array(spec.item),
        ...(spec.paged ? pageResponseFields : {}),
      }),
    },
    POST: { ...spec.create, status: Status.Created },
  };
}

/** One method of a member route, described. */
interface MemberMethod<A extends Access> {
  summary: string;
  access: A;
  errors?: readonly ErrorClass[];
}

export interface RemovableSpec<RA extends Access, DA extends Access> {
  /** The member as GET answers it (unless `read.response` says otherwise). */
  member: z.ZodType;
  read: MemberMethod<RA> & { response?: z.ZodType };
  /** DELETE answers `{success, message}`. */
  remove: MemberMethod<DA>;
}

/**
 * The meta of a member without an update (networks, routes, firewall rules):
 * GET reads the member, DELETE removes it.
 */
export function removableMember<const RA extends Access, const DA extends Access>(
  spec: RemovableSpec<RA, DA>,
) {
  const { response, ...read } = spec.read;
  return {
    GET: { ...read, response: response ?? spec.member },
    DELETE: { ...spec.remove, response: OkSchema },
  };
}

export interface MemberSpec<
  RA extends Access,
  UA extends Access,
  DA extends Access,
  B extends z.ZodType,
> extends RemovableSpec<RA, DA> {
  update: MemberMethod<UA> & { body: B };
}

/**
 * The meta of a member route, the specs' other common shape: GET reads the
 * member, PUT changes it and answers it, DELETE removes it.
 */
export function member<
  const RA extends Access,
  const UA extends Access,
  const DA extends Access,
  B extends z.ZodType,
>(spec: MemberSpec<RA, UA, DA, B>) {
  const { GET, DELETE } = removableMember(spec);
  return { GET, PUT: { ...spec.update, response: spec.member }, DELETE };
}

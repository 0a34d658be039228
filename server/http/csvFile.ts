/** A CSV answer the browser saves as `name` rather than shows. */
export function csvFile(body: string, name: string): Response {
  return new Response(body, {
    headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${name}"` },
  });
}

/** A file that cannot be read, with a reason its owner understands; it ends the job as `failed`. */
export class ExtractionError extends Error {
  override name = 'ExtractionError';
}

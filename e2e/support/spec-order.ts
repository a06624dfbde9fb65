import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The two heaviest specs (most screens, axe at two widths). Side by side on two cores they took 188 and 205 s in a
 * clean clone's run, against 122 and 146 s each beside lighter specs: Vitest, without timings of an earlier run,
 * starts the largest files first, which are these two.
 */
const KEPT_APART = ['e2e/dashboard-home.spec.ts', 'e2e/chat.spec.ts'];

/** Vitest's order (failed first, then longest or largest first), with the second heavy spec moved behind two others. */
export class SpecOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const heavy = sorted.filter((file) => KEPT_APART.some((name) => file.moduleId.endsWith(name)));
    if (heavy.length < 2) return sorted;
    const [first, second] = heavy as [TestSpecification, TestSpecification];
    const rest = sorted.filter((file) => file !== first && file !== second);
    return [first, ...rest.slice(0, 2), second, ...rest.slice(2)];
  }
}

// How one conformance case turns out through the public JS API. Plain ES module with no Node
// import, so the browser test runs the very same code in a page and in a web worker.

/** The ids of a qualify answer, its full body and the explanation; or the error code + message. */
export async function caseOutcome(api, testCase) {
  let qualifier = null;
  try {
    qualifier = await api.createQualifier(testCase.snapshot, {
      now: () => new Date(testCase.now),
    });
    const body = qualifier.qualify(testCase.request);
    return {
      rewards: body.rewards.map((entity) => entity.id),
      points_products: body.points_products.map((entity) => entity.id),
      body: JSON.parse(JSON.stringify(body)),
      explain: qualifier.explain(testCase.request),
    };
  } catch (e) {
    if (e instanceof api.QualifyError) return { error: e.code, message: e.message };
    throw e;
  } finally {
    if (qualifier !== null) qualifier.dispose();
  }
}

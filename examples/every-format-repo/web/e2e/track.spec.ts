import { test } from "@playwright/test";

test("tracks a parcel", async () => {});

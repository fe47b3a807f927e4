import { describe, expect, it } from "vitest";
import { answerCredentialRequest, askForCredentials, attachCredentialHost, currentCredentialRequest } from "../../components/scm/credential-prompt";

const request = { host: "git.example.com", origin: "https://git.example.com", rejected: false };

describe("the page's credential request queue", () => {
  it("answers 'cancelled' at once when no dialog host is mounted", async () => {
    expect(await askForCredentials(request)).toBeNull();
  });

  it("shows requests one at a time to the mounted host, and cancels what is left when it goes", async () => {
    let renders = 0;
    const detach = attachCredentialHost(() => renders++);
    const first = askForCredentials(request);
    const second = askForCredentials({ ...request, host: "other.example.com", origin: "https://other.example.com" });
    expect(currentCredentialRequest()?.request.host).toBe("git.example.com");
    answerCredentialRequest({ username: "u", password: "p" });
    expect(await first).toEqual({ username: "u", password: "p" });
    expect(currentCredentialRequest()?.request.host).toBe("other.example.com");
    expect(renders).toBeGreaterThanOrEqual(3);
    detach();
    expect(await second).toBeNull();
    expect(currentCredentialRequest()).toBeUndefined();
  });
});

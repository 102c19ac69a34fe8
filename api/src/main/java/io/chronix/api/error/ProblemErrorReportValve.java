package io.chronix.api.error;

import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;
import org.apache.tomcat.util.ExceptionUtils;
import org.springframework.http.MediaType;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.io.Writer;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Tomcat's error report, as a problem document instead of its HTML page: the answer to a request
 * the web server refuses before any servlet or filter of ours runs — a URL whose %-escapes do not
 * decode or that holds an encoded {@code /} or {@code \}, a raw backslash or control character, a
 * request line or headers over the size limit, a missing or invalid {@code Host}, an unsupported
 * HTTP version or transfer coding, a malformed request line or {@code Content-Length}. Installed
 * as the host's error report valve ({@code ErrorResponsesConfiguration}); errors of requests that
 * reach the application are answered by {@link ProblemErrorController} first, and this valve then
 * finds the body written and does nothing.
 */
public final class ProblemErrorReportValve extends ErrorReportValve {

    private final JsonMapper json;

    public ProblemErrorReportValve(JsonMapper json) {
        this.json = json;
    }

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        // as Tomcat's own: nothing for a success, an answer already written or an error already reported
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        AtomicBoolean ioAllowed = new AtomicBoolean(false);
        response.getCoyoteResponse().action(ActionCode.IS_IO_ALLOWED, ioAllowed);
        if (!ioAllowed.get()) {
            return; // the connection is broken: nobody would read it
        }
        try {
            String body = json.writeValueAsString(ErrorDetails.ofStatus(status));
            response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
            response.setCharacterEncoding("UTF-8");
            Writer writer = response.getReporter();
            if (writer != null) {
                writer.write(body);
                response.finishResponse();
            }
        } catch (IOException | IllegalStateException e) {
            // the response cannot take a body any more; the status line is all the client gets
        } catch (Throwable t) {
            ExceptionUtils.handleThrowable(t);
        }
    }
}

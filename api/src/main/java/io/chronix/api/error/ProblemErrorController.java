package io.chronix.api.error;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.coyote.BadRequestException;
import org.apache.tomcat.util.http.InvalidParameterException;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.ProblemDetail;
import org.springframework.security.web.firewall.RequestRejectedException;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import java.io.IOException;

/**
 * The error dispatch ({@code /error}), in place of Spring Boot's {@code BasicErrorController} and
 * its {@code {"timestamp", "status", "error", "path"}} body: whatever the web server sends here —
 * a {@code sendError} from a filter or from Tomcat itself ({@code TRACE}, a malformed chunked body),
 * an exception no handler answered — is answered as a problem document, whatever the request's
 * {@code Accept} header says (it is written directly, not negotiated).
 *
 * <p>Requests rejected before a servlet runs (a URL Tomcat cannot decode, a malformed request line)
 * never get here: {@link ProblemErrorReportValve} answers those.
 */
@RestController
class ProblemErrorController implements ErrorController {

    private final ProblemWriter problems;

    ProblemErrorController(ProblemWriter problems) {
        this.problems = problems;
    }

    @RequestMapping("${server.error.path:${error.path:/error}}")
    void error(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (response.isCommitted()) {
            return;
        }
        response.resetBuffer();
        problems.write(response, problemFor(request));
    }

    /** The problem of the failed request this error dispatch is for. */
    static ProblemDetail problemFor(HttpServletRequest request) {
        Object status = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        if (!(status instanceof Integer code)) {
            return ErrorDetails.ofStatus(404); // /error asked for directly: there is no such endpoint
        }
        for (Throwable t = (Throwable) request.getAttribute(RequestDispatcher.ERROR_EXCEPTION); t != null; t = t.getCause()) {
            if (t instanceof RequestRejectedException rejected) {
                return ProblemRequestRejectedHandler.problem(rejected);
            }
            if (t instanceof InvalidParameterException) {
                return ErrorDetails.undecodableQuery();
            }
            if (t instanceof BadRequestException) {
                return ErrorDetails.malformedBody();
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return ErrorDetails.ofStatus(code);
    }
}

package io.chronix.api.error;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.security.web.firewall.RequestRejectedException;
import org.springframework.security.web.firewall.RequestRejectedHandler;
import org.springframework.stereotype.Component;

import java.io.IOException;

/**
 * Spring Security's firewall ({@code StrictHttpFirewall}) refuses a URL with {@code //}, {@code ;},
 * an encoded {@code %} or {@code .}, a {@code ..} segment, or a method that is not standard HTTP
 * (Tomcat refuses an encoded {@code /} or {@code \} before it: {@link ProblemErrorReportValve}).
 * Its default handler answered {@code sendError(400)}, which became Spring Boot's default error
 * JSON; this one answers {@code request-rejected} as a problem document, saying which rule the
 * request broke (the firewall's message names the rule, not anything of the server). Spring
 * Security takes the one {@link RequestRejectedHandler} bean there is.
 */
@Component
class ProblemRequestRejectedHandler implements RequestRejectedHandler {

    private final ProblemWriter problems;

    ProblemRequestRejectedHandler(ProblemWriter problems) {
        this.problems = problems;
    }

    @Override
    public void handle(HttpServletRequest request, HttpServletResponse response, RequestRejectedException e) throws IOException {
        problems.write(response, problem(e));
    }

    static ProblemDetail problem(RequestRejectedException e) {
        String why = e.getMessage() == null ? "" : ": " + e.getMessage().replaceFirst("^The request was rejected because ", "");
        return Problems.of(HttpStatus.BAD_REQUEST, "request-rejected", "Request rejected",
                "The request's URL or method is not accepted" + why + ".");
    }
}

package io.chronix.api.error;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.MediaType;
import org.springframework.web.HttpMediaTypeNotAcceptableException;
import org.springframework.web.accept.ContentNegotiationStrategy;
import org.springframework.web.accept.HeaderContentNegotiationStrategy;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

import java.util.List;

/**
 * Spring MVC's {@code Accept} negotiation, except that an error's problem document is written
 * when the header cannot be parsed ({@code Accept: ////}). Spring MVC answers such a request 406,
 * as before, but then found it could not negotiate the 406's own body either and sent none — nor
 * any other error's body. A response already in error disregards the header (RFC 9110 §12.5.1
 * lets a server disregard it rather than refuse); a successful one is still refused with 406.
 */
final class ErrorNegotiation implements ContentNegotiationStrategy {

    private static final List<MediaType> ANY = List.of(MediaType.ALL);

    private final ContentNegotiationStrategy header = new HeaderContentNegotiationStrategy();

    @Override
    public List<MediaType> resolveMediaTypes(NativeWebRequest request) throws HttpMediaTypeNotAcceptableException {
        try {
            return header.resolveMediaTypes(request);
        } catch (HttpMediaTypeNotAcceptableException e) {
            if (inError(request)) {
                return ANY;
            }
            throw e;
        }
    }

    /**
     * The response is an error's: Spring MVC asks with a web request wrapping the servlet request
     * alone, so the response is the one the dispatcher bound to the thread for the request.
     */
    private static boolean inError(NativeWebRequest request) {
        HttpServletResponse response = request.getNativeResponse(HttpServletResponse.class);
        if (response == null && RequestContextHolder.getRequestAttributes() instanceof ServletRequestAttributes bound
                && bound.getRequest() == request.getNativeRequest(HttpServletRequest.class)) {
            response = bound.getResponse();
        }
        return response != null && response.getStatus() >= 400;
    }
}

import FaceoffKit

extension Session {
    /// Alert text and webhook bodies, from the templates in effect.
    public func renderer() throws(TemplateError) -> Renderer {
        Renderer(templates: try templates(), followed: Set(config.teams))
    }
}
